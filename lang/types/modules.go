package types

// The module loader (lang/modules) renames the declarations of imported
// modules before it hands the program to the checker, so the checker's
// own reserved-name checks see those names mangled; it asks these instead.

// ReservedValue reports whether a function or constructor may not be
// declared under name: a top-level builtin, a core constructor or a
// builtin module.
func ReservedValue(name string) bool {
	return lib().reserved[name] || lib().modules[name] || coreCtor(name)
}

// ReservedType reports whether a type may not be declared under name.
func ReservedType(name string) bool {
	_, ok := lib().typeDefs[name]
	return ok || isBuiltinTypeName(name) || lib().modules[name]
}

// BuiltinModule reports whether name is a builtin module (List, String,
// Process, ...), which a user module cannot shadow.
func BuiltinModule(name string) bool { return lib().modules[name] }
