package modules

// JoinPartial is for the editor server (lang/query): when loading or
// resolving reported errors (a declaration that does not parse, an
// import of a missing name), Resolve leaves p.AST nil. JoinPartial
// resolves what can be resolved, if Resolve did not get that far, and
// joins the trees anyway, so the declarations that parse can be checked
// for the editor's queries. The diagnostics it meets are dropped: p.Diags
// keeps the ones the program reports.
func (p *Program) JoinPartial() {
	if p.AST != nil || len(p.Modules) == 0 {
		return
	}
	saved := p.Diags
	defer func() { p.Diags = saved }()
	p.Diags = nil
	if p.Modules[0].sc == nil { // Resolve stopped before resolving
		for _, m := range p.Modules {
			p.resolveModule(m)
		}
	}
	p.join()
}
