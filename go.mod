module github.com/morrow-lang/morrow

go 1.26.8

require (
	github.com/alecthomas/participle/v2 v2.1.4
	github.com/chzyer/readline v1.5.1
	github.com/creack/pty v1.1.24
	github.com/fatih/color v1.19.0
	github.com/rivo/uniseg v0.4.7
	github.com/sebdah/goldie/v2 v2.8.0
	github.com/spf13/cobra v1.10.2
	github.com/spf13/pflag v1.0.9
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/mattn/go-isatty v0.0.20 // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	github.com/sergi/go-diff v1.0.0 // indirect
	golang.org/x/sys v0.42.0 // indirect
)
