module github.com/morrow-lang/morrow

go 1.26.8
