package t
import ("testing";"os";"fmt";"github.com/morrow-lang/morrow/lang/compiler")
func TestX(t *testing.T){
 src,_:=os.ReadFile(os.Getenv("F"))
 u,err:=compiler.Analyze("a.mr",src)
 fmt.Println(err)
 for _,d:=range u.Diags{fmt.Println(d)}
}
