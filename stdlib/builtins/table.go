package builtins

// table is every builtin function (docs/reference/actors.md#the-process-api and docs/reference/stdlib.md, docs/stdlib.md, and
// this project's additions recorded in docs/stdlib.md). The reference in
// docs/stdlib.md lists them in this order.
var table = concat(
	[]*Entry{
		native("print", "(a) -> Unit", "Writes a value with no newline: Int, Float, Bool and String as they are, any other value as its Show text.").req(Printable).flags(Long),
		native("println", "(a) -> Unit", "Writes a value as print does, then a newline.").req(Printable).flags(Long),
		native("show", "(a) -> String", "The Show text of a value: strings quoted and escaped, floats in %.17g style.").req(Showable).flags(Long),
		native("eq", "(a, a) -> Bool", "Whether two values of a type with Eq are equal (==).").labels("left", "right").req(Equatable).flags(Long),
		native("compare", "(a, a) -> Ordering", "Less, Equal or Greater, in the order List.sort uses.").labels("left", "right").req(Ordered).flags(Long),
		opcode("send", "(Pid(m), m) -> Result(Unit, Int)", LowerSend, "Copies a message into the mailbox of a typed Pid: Ok(()), Err(3) for a dead target, Err(4) when the mailbox is full.").context(RootOrActor).rule(TypedPid).flags(NoDefer | Effect),
		opcode("spawn", "(() -> Unit) -> Pid(m)", LowerSpawn, "Legacy: starts an actor running the entry and returns its Pid; a refused admission is fault 9.").context(RootOrActor).rule(SpawnEntry).flags(NoDefer | Effect).mailbox("m"),
		opcode("supervise", "(() -> Unit, Int) -> Pid(m)", LowerSupervise, "Legacy: starts an actor that a fresh one replaces when it faults, at most n (0..32) times.").context(RootOrActor).rule(SpawnEntry).flags(NoDefer | Effect).mailbox("m"),
		native("supervised_current", "(Pid(m)) -> Result(Pid(m), Int)", "Legacy: the current incarnation of a supervise child, or Err(3).").context(RootOrActor).flags(NoDefer),
	},

	// Callbacks given to List, Option and Result functions run without an
	// actor context (docs/reference/checks.md#guards-and-defer).
	withFlags(RootCallbacks,
		native("List.head", "(List(a)) -> a", "The first element; fault 4 for an empty list."),
		native("List.get", "(List(a), Int) -> a", "The element at a 0-based index, as `xs[i]`; fault 3 outside the list."),
		native("List.tail", "(List(a)) -> List(a)", "Every element but the first; [] for an empty list."),
		native("List.len", "(List(a)) -> Int", "The number of elements.").flags(MetadataRead),
		native("List.is_empty", "(List(a)) -> Bool", "Whether the list has no elements.").flags(MetadataRead),
		native("List.first", "(List(a)) -> Option(a)", "Some of the first element, or None for []."),
		native("List.last", "(List(a)) -> Option(a)", "Some of the last element, or None for []."),
		native("List.at", "(List(a), Int) -> Option(a)", "Some of the element at a 0-based index, or None outside the list."),
		native("List.push", "(List(a), a) -> List(a)", "A new list with the element added at the end (amortised O(1)).").flags(Long),
		native("List.concat", "(List(a), List(a)) -> List(a)", "The elements of the first list, then those of the second.").flags(Long),
		native("List.reverse", "(List(a)) -> List(a)", "The elements in reverse order.").flags(Long),
		native("List.take", "(List(a), Int) -> List(a)", "The first n elements, n clamped to 0..len.").flags(Long),
		native("List.drop", "(List(a), Int) -> List(a)", "Every element after the first n, n clamped to 0..len.").flags(Long),
		native("List.range", "(Int, Int) -> List(Int)", "The Ints from start up to end, end excluded; fault 15 above 2^24 elements.").flags(Long),
		native("List.zip", "(List(a), List(b)) -> List((a, b))", "Pairs of the elements at the same position, up to the shorter list; fault 15 above 2^24 pairs.").flags(Long),
		native("List.contains", "(List(a), a) -> Bool", "Whether a scalar element occurs in the list (`x in xs`).").req(Scalar).flags(Long),
		native("List.sum", "(List(Int)) -> Int", "The sum of the elements, wrapping on overflow; 0 for [].").flags(Long),
		native("List.sort", "(List(a)) -> List(a)", "The elements in ascending order; equal elements keep their order.").req(Ordered).flags(Long),
		prelude("List.sort_by", "(List(a), (a, a) -> Ordering) -> List(a)", "list_sort_by", "The elements sorted by a comparator (a stable merge sort; Greater puts the left one after)."),
		prelude("List.map", "(List(a), (a) -> b) -> List(b)", "list_map", "The callback's results for each element, in order."),
		prelude("List.filter", "(List(a), (a) -> Bool) -> List(a)", "list_filter", "The elements the callback accepts, in order."),
		prelude("List.fold", "(List(a), b, (b, a) -> b) -> b", "list_fold", "A left fold: the callback gets the accumulator, then the element; the initial value for []."),
		prelude("List.find", "(List(a), (a) -> Bool) -> Option(a)", "list_find", "Some of the first element the callback accepts (later ones are not visited), else None."),
		prelude("List.any", "(List(a), (a) -> Bool) -> Bool", "list_any", "Whether the callback accepts some element; stops at the first; false for []."),
		prelude("List.all", "(List(a), (a) -> Bool) -> Bool", "list_all", "Whether the callback accepts every element; stops at the first refusal; true for []."),
		native("List.enumerate", "(List(a)) -> List((Int, a))", "Pairs of each element's index (from 0) and the element.").flags(Long),
		// List.max and List.min have no Ord requirement in the checker
		// (unlike List.sort); docs/stdlib.md says they need Ord.
		native("List.max", "(List(a)) -> Option(a)", "Some of the first greatest element in List.sort's order, or None for [].").flags(Long),
		native("List.min", "(List(a)) -> Option(a)", "Some of the first least element in List.sort's order, or None for [].").flags(Long),
	),

	// Maps and sets (docs/maps.md): immutable and insertion-ordered; keys
	// and elements meet the map key rule (MapKey, on the first generic).
	withFlags(RootCallbacks,
		native("Map.new", "() -> Map(k, v)", "The empty map; needs type context like `%{}`.").req(MapKey),
		native("Map.get", "(Map(k, v), k) -> Option(v)", "Some of the key's value, or None.").req(MapKey),
		native("Map.put", "(Map(k, v), k, v) -> Map(k, v)", "The map with the key bound to the value: an existing key keeps its position, a new one goes last; fault 17 above 2^24 entries.").req(MapKey),
		native("Map.delete", "(Map(k, v), k) -> Map(k, v)", "The map without the key (the same map when it is absent).").req(MapKey),
		native("Map.len", "(Map(k, v)) -> Int", "The number of entries.").req(MapKey).flags(MetadataRead),
		native("Map.is_empty", "(Map(k, v)) -> Bool", "Whether the map has no entries.").req(MapKey).flags(MetadataRead),
		native("Map.contains", "(Map(k, v), k) -> Bool", "Whether the key is present.").req(MapKey),
		native("Map.keys", "(Map(k, v)) -> List(k)", "The keys in insertion order.").req(MapKey).flags(Long),
		native("Map.values", "(Map(k, v)) -> List(v)", "The values in insertion order.").req(MapKey).flags(Long),
		native("Map.from_list", "(List((k, v))) -> Map(k, v)", "The map of the pairs: a later duplicate replaces the value and keeps the first position; fault 17 above 2^24 entries.").req(MapKey).flags(Long),
		native("Map.to_list", "(Map(k, v)) -> List((k, v))", "The (key, value) pairs in insertion order.").req(MapKey).flags(Long),
		native("Map.get_or", "(Map(k, v), k, v) -> v", "The key's value, or the default when it is absent.").req(MapKey),
		prelude("Map.update", "(Map(k, v), k, (Option(v)) -> Option(v)) -> Map(k, v)", "map_update", "The callback gets Some of the key's value or None; None deletes the key, Some(x) puts x.").req(MapKey),
		prelude("Map.fold", "(Map(k, v), a, (a, k, v) -> a) -> a", "map_fold", "A fold in insertion order: the callback gets the accumulator, the key and the value.").req(MapKey),
		prelude("Map.map_values", "(Map(k, v), (v) -> w) -> Map(k, w)", "map_map_values", "The map with each value replaced by the callback's result, order kept.").req(MapKey),
		prelude("Map.filter", "(Map(k, v), (k, v) -> Bool) -> Map(k, v)", "map_filter", "The entries the callback accepts, order kept.").req(MapKey),
		native("Map.merge", "(Map(k, v), Map(k, v)) -> Map(k, v)", "Both maps' entries, the right side's value winning: the left's order, then the right's new keys; fault 17 above 2^24 entries.").req(MapKey).flags(Long),
		native("Set.new", "() -> Set(a)", "The empty set; needs type context.").req(MapKey),
		native("Set.from_list", "(List(a)) -> Set(a)", "The set of the elements, each at its first occurrence's position; fault 17 above 2^24 elements.").req(MapKey).flags(Long),
		native("Set.to_list", "(Set(a)) -> List(a)", "The elements in insertion order.").req(MapKey).flags(Long),
		native("Set.insert", "(Set(a), a) -> Set(a)", "The set with the element (a present one keeps its position); fault 17 above 2^24 elements.").req(MapKey),
		native("Set.delete", "(Set(a), a) -> Set(a)", "The set without the element.").req(MapKey),
		native("Set.contains", "(Set(a), a) -> Bool", "Whether the element is in the set (`x in s`).").req(MapKey),
		native("Set.len", "(Set(a)) -> Int", "The number of elements.").req(MapKey).flags(MetadataRead),
		native("Set.is_empty", "(Set(a)) -> Bool", "Whether the set has no elements.").req(MapKey).flags(MetadataRead),
		native("Set.union", "(Set(a), Set(a)) -> Set(a)", "The elements of either set: the left's order, then the right's new elements; fault 17 above 2^24 elements.").req(MapKey).flags(Long),
		native("Set.intersection", "(Set(a), Set(a)) -> Set(a)", "The left's elements that are in the right, in the left's order.").req(MapKey).flags(Long),
		native("Set.difference", "(Set(a), Set(a)) -> Set(a)", "The left's elements that are not in the right, in the left's order.").req(MapKey).flags(Long),
		native("Set.is_subset", "(Set(a), Set(a)) -> Bool", "Whether every element of the first is in the second.").req(MapKey).flags(Long),
		native("Set.equal", "(Set(a), Set(a)) -> Bool", "Whether the sets have the same elements, whatever their order (`==`).").req(MapKey).flags(Long),
	),

	[]*Entry{
		native("String.len", "(String) -> Int", "The length in UTF-8 bytes."),
		native("String.concat", "(String, String) -> String", "The first string followed by the second; fault 5 over 16 MiB.").flags(Long),
		native("String.eq", "(String, String) -> Bool", "Whether the two strings have the same bytes.").flags(Long),
		native("String.compare", "(String, String) -> Int", "-1, 0 or 1, comparing bytes lexicographically.").flags(Long),
		native("String.repeat", "(String, Int) -> String", "The text repeated n times (\"\" for n <= 0); fault 5 over 16 MiB.").flags(Long),
		native("String.slice", "(String, Int, Int) -> String", "The bytes from start to end (excluded), both clamped; fault 6 when an end falls inside a character."),
		native("String.split", "(String, String) -> List(String)", "The pieces between separators, empty ones kept; an empty separator gives the characters.").flags(Long),
		native("String.join", "(List(String), String) -> String", "The parts with the separator between them; fault 5 over 16 MiB.").flags(Long),
		native("String.contains", "(String, String) -> Bool", "Whether the needle occurs in the text (true for \"\").").flags(Long),
		native("String.starts_with", "(String, String) -> Bool", "Whether the text begins with the prefix."),
		native("String.ends_with", "(String, String) -> Bool", "Whether the text ends with the suffix."),
		native("String.trim", "(String) -> String", "The text without spaces, tabs, CR and LF at either end."),
		native("String.trim_start", "(String) -> String", "The text without spaces, tabs, CR and LF at its start."),
		native("String.trim_end", "(String) -> String", "The text without spaces, tabs, CR and LF at its end."),
		native("String.to_upper", "(String) -> String", "The text with ASCII letters in upper case.").flags(Long),
		native("String.to_lower", "(String) -> String", "The text with ASCII letters in lower case.").flags(Long),
		native("String.replace", "(String, String, String) -> String", "The text with every match of old, left to right, replaced by new; fault 5 over 16 MiB.").flags(Long),
		native("String.quote", "(String) -> String", "The text as a Morrow string literal in double quotes.").flags(Long),
		native("String.is_empty", "(String) -> Bool", "Whether the string has no bytes."),
		native("String.index_of", "(String, String) -> Option(Int)", "Some byte index of the needle's first occurrence, or None.").flags(Long),
		native("String.char_at", "(String, Int) -> Option(Int)", "Some of the byte at an index, or None outside the string."),
		native("String.lines", "(String) -> List(String)", "The lines of the text, without their line endings (`\\n` or `\\r\\n`).").flags(Long),
		native("String.is_decimal", "(String) -> Bool", "Whether the string is one or more ASCII digits.").flags(Long),
		native("String.pad_left", "(String, Int, String) -> String", "The text widened to a number of code points by repeating the pad before it.").flags(Long),
		native("String.pad_right", "(String, Int, String) -> String", "The text widened to a number of code points by repeating the pad after it.").flags(Long),

		native("Int.parse", "(String) -> Option(Int)", "Some of the Int written as `[+-]?[0-9]+` within range, else None.").flags(Long),
		native("Int.checked_add", "(Int, Int) -> Option(Int)", "Some of the sum, or None on overflow."),
		native("Int.checked_sub", "(Int, Int) -> Option(Int)", "Some of the difference, or None on overflow."),
		native("Int.checked_mul", "(Int, Int) -> Option(Int)", "Some of the product, or None on overflow."),
		native("Int.checked_div", "(Int, Int) -> Option(Int)", "Some of the quotient (truncated), or None for a zero divisor or Int.min / -1."),
		native("Int.checked_rem", "(Int, Int) -> Option(Int)", "Some of the remainder (the dividend's sign), or None for a zero divisor or Int.min % -1."),
		native("Int.checked_neg", "(Int) -> Option(Int)", "Some of the negation, or None for Int.min."),
		native("Int.to_float", "(Int) -> Float", "The nearest Float."),
		native("Float.from_int", "(Int) -> Float", "The nearest Float (as Int.to_float)."),
		native("Float.to_int", "(Float) -> Int", "Truncated toward zero, saturating at Int.min and Int.max; 0 for NaN."),
		native("Float.round", "(Float) -> Int", "The nearest Int, halves away from zero, saturating as Float.to_int."),
	},

	withFlags(RootCallbacks,
		native("Option.is_some", "(Option(a)) -> Bool", "Whether the option is Some."),
		native("Option.is_none", "(Option(a)) -> Bool", "Whether the option is None."),
		native("Option.unwrap_or", "(Option(a), a) -> a", "The payload of Some, or the fallback."),
		prelude("Option.map", "(Option(a), (a) -> b) -> Option(b)", "option_map", "Some of the callback's result for Some; None without calling it."),
		native("Result.is_ok", "(Result(a, e)) -> Bool", "Whether the result is Ok."),
		native("Result.is_err", "(Result(a, e)) -> Bool", "Whether the result is Err."),
		native("Result.unwrap_or", "(Result(a, e), a) -> a", "The payload of Ok, or the fallback."),
		prelude("Result.unwrap_or_else", "(Result(a, e), (e) -> a) -> a", "result_unwrap_or_else", "The payload of Ok, or the callback's result for the error."),
		prelude("Result.map", "(Result(a, e), (a) -> b) -> Result(b, e)", "result_map", "Ok of the callback's result for Ok; an Err unchanged."),
		prelude("Result.and_then", "(Result(a, e), (a) -> Result(b, e)) -> Result(b, e)", "result_and_then", "The callback's result for Ok; an Err unchanged."),
	),

	// The Process API (docs/reference/actors.md#the-process-api, docs/process.md). Every operation
	// is refused in deferred cleanup.
	withFlags(NoDefer,
		opcode("Process.spawn", "(() -> Unit) -> Result(Pid(m), Process.Error)", LowerSpawnIsolated, "Starts an isolated process running the entry: Ok of its Pid, or Err(ResourceLimit).").context(RootOrActor).rule(SpawnEntry).flags(Effect).mailbox("m"),
		opcode("Process.spawn_monitor", "(() -> Unit) -> Result((Pid(m), MonitorRef), Process.Error)", LowerSpawnMonitor, "Starts a process and monitors it in one step.").context(ActorOnly).rule(SpawnEntry).flags(Effect).mailbox("m"),
		opcode("Process.spawn_link", "(() -> Unit) -> Result(Pid(m), Process.Error)", LowerSpawnLink, "Starts a process linked to the caller in one step.").context(ActorOnly).rule(SpawnEntry).flags(Effect).mailbox("m"),
		opcode("Process.self", "() -> Pid(m)", LowerSelf, "The caller's own Pid, typed by its mailbox.").context(ActorOnly).rule(OwnMailbox),
		native("Process.id", "(Pid(m)) -> ProcessId", "The identity behind a typed Pid, with the mailbox type erased.").context(RootOrActor).rule(TypedPid),
		native("Process.monitor", "(ProcessId) -> Result(MonitorRef, Process.Error)", "Monitors a process: one Down event arrives when it ends (at once if it has ended).").context(ActorOnly),
		native("Process.demonitor", "(MonitorRef, Process.DemonitorOptions) -> Result(Bool, Process.Error)", "Cancels a monitor of the caller; flush removes a queued Down, info asks whether it was still active.").context(ActorOnly),
		native("Process.link", "(ProcessId) -> Result(Unit, Process.Error)", "Links the caller and a process, so that the exit of one signals the other.").context(ActorOnly),
		native("Process.unlink", "(ProcessId) -> Result(Unit, Process.Error)", "Removes a link between the caller and a process.").context(ActorOnly),
		native("Process.trap_exit", "(Bool) -> Bool", "Turns exit signals into Exit events (true) or not (false); returns the previous setting.").context(ActorOnly),
		native("Process.exit", "(Process.ExitReason) -> Never", "Ends the caller with a reason, after its registered cleanup.").context(ActorOnly),
		native("Process.signal_exit", "(ProcessId, Process.ExitReason) -> Result(Unit, Process.Error)", "Sends an exit signal with a reason to a process (Kill cannot be trapped).").context(ActorOnly),
		opcode("Process.sleep", "(Int) -> Unit", LowerSleep, "Parks the caller for 0..600000 ms (else fault 8); messages stay queued.").context(ActorOnly),

		// The name registry, typed call and back-pressure (docs/reference/runtime.md#features-beyond-the-core-language,
		// docs/supervisors.md; docs/process.md).
		native("Process.register", "(String, Pid(m)) -> Result(Unit, Process.Error)", "Names a live process (with its mailbox type); Err(InvalidOptions) for a taken or bad name, a dead or already named process.").context(RootOrActor).flags(MailboxKey).mailbox("m"),
		native("Process.whereis", "(String) -> Option(Pid(m))", "Some of the Pid registered under a name, or None (also when it was registered at another mailbox type).").context(RootOrActor).flags(MailboxKey).mailbox("m"),
		native("Process.unregister", "(String) -> Bool", "Removes a name from the registry; whether it was registered.").context(RootOrActor),
		opcode("Process.call", "(Pid(m), (Pid(r)) -> m, Int) -> Result(r, Process.CallError)", LowerCall, "Sends request(reply) and waits up to a timeout in ms (negative: forever) for the reply: CallTimeout, CallDown(reason) or CallRejected(code).").context(ActorOnly).rule(TypedPid).flags(Effect).reply("r"),
		opcode("Process.send_wait", "(Pid(m), m) -> Result(Unit, Int)", LowerSendWait, "Sends a message, parking while the mailbox is full (admitted in arrival order); Err(3) when the target is dead or dies meanwhile.").context(ActorOnly).rule(TypedPid).flags(Effect),
		native("Process.init_ack", "() -> Result(Unit, Process.Error)", "Ends a supervised child's start-up successfully; Err(InvalidOptions) outside it or when repeated.").context(ActorOnly),
		native("Process.init_ignore", "() -> Never", "Ends a supervised child's start-up as ignored and exits Normal; fault 16 outside a start-up.").context(ActorOnly),
		native("Process.init_fail", "(Process.ExitReason) -> Never", "Ends a supervised child's start-up as failed and exits with the reason; fault 16 outside a start-up.").context(ActorOnly),
	),

	// The Supervisor module (docs/supervisors.md, docs/supervisors.md). Every
	// operation is refused in deferred cleanup; the ones that talk to a
	// supervisor park the caller (in main too) until it answers.
	withFlags(NoDefer,
		native("Supervisor.child_key", "(String) -> Supervisor.ChildKey(m)", "A fresh key for a child name; its mailbox type comes from the expected type. Fault 9 over 4,096 bytes."),
		native("Supervisor.worker", "(Supervisor.ChildKey(m), () -> Unit, Supervisor.ChildPolicy) -> Result(Supervisor.ChildSpec, Supervisor.Error)", "A worker spec: the entry (whose mailbox is the key's) restarts from a fresh copy each generation.").rule(ChildEntry).mailbox("m"),
		native("Supervisor.branch", "(String, Supervisor.Flags, List(Supervisor.ChildSpec), Supervisor.ChildPolicy) -> Result(Supervisor.ChildSpec, Supervisor.Error)", "A nested supervisor spec with its own flags and children, validated at once."),
		native("Supervisor.start", "(Supervisor.Flags, List(Supervisor.ChildSpec)) -> Result(Supervisor.Handle, Supervisor.Error)", "Starts an unlinked supervisor and returns once its children have started (or rolled back).").context(RootOrActor),
		native("Supervisor.start_link", "(Supervisor.Flags, List(Supervisor.ChildSpec)) -> Result(Supervisor.Handle, Supervisor.Error)", "Supervisor.start, linked to the caller: the caller's exit, for any reason, stops the supervisor.").context(ActorOnly),
		native("Supervisor.id", "(Supervisor.Handle) -> ProcessId", "The supervisor's process identity (for monitor and link)."),
		native("Supervisor.current", "(Supervisor.Handle, Supervisor.ChildKey(m)) -> Result(Pid(m), Supervisor.Error)", "The running generation of the child of that very key, as a typed Pid.").context(RootOrActor),
		native("Supervisor.which_children", "(Supervisor.Handle) -> Result(List(Supervisor.ChildInfo), Supervisor.Error)", "One row per child spec, in declaration order.").context(RootOrActor),
		native("Supervisor.start_child", "(Supervisor.Handle, Supervisor.ChildSpec) -> Result(Unit, Supervisor.Error)", "Adds a child spec at the end and starts it.").context(RootOrActor),
		native("Supervisor.terminate_child", "(Supervisor.Handle, String) -> Result(Unit, Supervisor.Error)", "Stops a child by its shutdown policy; it stays as Stopped (a Temporary spec is removed).").context(RootOrActor),
		native("Supervisor.restart_child", "(Supervisor.Handle, String) -> Result(Unit, Supervisor.Error)", "Starts a Stopped child again (never charged against the intensity).").context(RootOrActor),
		native("Supervisor.delete_child", "(Supervisor.Handle, String) -> Result(Unit, Supervisor.Error)", "Removes a Stopped child's spec.").context(RootOrActor),
		native("Supervisor.stop", "(Supervisor.Handle) -> Result(Unit, Supervisor.Error)", "Stops every child in reverse order, answers, then the supervisor exits Normal.").context(RootOrActor),
	),
	// The outside world (docs/io.md): System, fs (and File, its
	// alias), http and Net. Operations that wait park only their caller
	// (Outside) and are refused in deferred cleanup.
	[]*Entry{
		native("System.args", "() -> List(String)", "The program's arguments: what follows `--` on the command line (`morrow run prog.mr -- a b`)."),
		native("System.env", "(String) -> Option(String)", "Some of an environment variable's value, or None when it is not set."),
		native("System.exit", "(Int) -> Never", "Flushes stdout and stderr and ends the whole program with a status 0..255 (else fault 18); no other cleanup runs."),
		native("System.time_ms", "() -> Int", "Wall-clock time in milliseconds since the Unix epoch."),
		native("System.monotonic_ms", "() -> Int", "A monotonic clock in milliseconds, for measuring intervals."),
		native("System.read_line", "() -> Option(String)", "Some of the next line of stdin without its `\\n` or `\\r\\n`, None at the end; lines over 1 MiB are split.").flags(NoDefer | Outside | Unreplayable),
		native("eprint", "(a) -> Unit", "Writes a value as print does, to stderr.").req(Printable).flags(Long),
		native("eprintln", "(a) -> Unit", "Writes a value as println does, to stderr.").req(Printable).flags(Long),
	},
	withFlags(NoDefer|Outside, fsEntries("fs")...),
	withFlags(NoDefer|Outside, fsEntries("File")...),
	withFlags(NoDefer|Outside|Unreplayable,
		native("http.get", "(String) -> Result(String, Int)", "GETs a URL: Ok of a 2xx body; Err(3) for any failure (bad URL, transport, non-2xx, redirect, over 16 MiB, invalid UTF-8, 30 s)."),
		native("http.post", "(String, String) -> Result(String, Int)", "POSTs a body to a URL: Ok of a 2xx response body; Err(3) for any failure, as http.get."),
		native("Net.listen", "(String, Int) -> Result(Net.Listener, Int)", "Listens on a host and port (0: a free one); the caller owns the listener. Err 2 permission, 8 in use, 3 other."),
		native("Net.accept", "(Net.Listener) -> Result(Net.Socket, Int)", "Waits for a client; the caller owns the new socket. Err 4 not the owner, 5 closed, 3 over the socket limit."),
		native("Net.connect", "(String, Int) -> Result(Net.Socket, Int)", "Connects to a host and port; the caller owns the socket. Err 1 refused or unreachable, 3 other."),
		native("Net.read_line", "(Net.Socket, Int) -> Result(Option(String), Int)", "Some of the next line without its `\\n`, None when the peer closed; timeout in ms (negative: none). Err 7 timeout, 9 line over 1 MiB (closed)."),
		native("Net.write", "(Net.Socket, String) -> Result(Unit, Int)", "Writes the text as given. Err 4 not the owner, 5 closed."),
	),
	withFlags(Unreplayable,
		native("Net.port", "(Net.Listener) -> Int", "The port a listener is bound to."),
		native("Net.close", "(Net.Socket) -> Result(Unit, Int)", "Closes a socket. Err 4 not the owner, 5 already closed."),
		native("Net.close_listener", "(Net.Listener) -> Result(Unit, Int)", "Closes a listener. Err 4 not the owner, 5 already closed."),
		native("Net.transfer", "(Net.Socket, ProcessId) -> Result(Unit, Int)", "Hands a socket to another live process, its new owner. Err 4 not the owner, 5 closed, 3 the process has ended."),
	),

	// The Test module (docs/testing.md): assertions for `morrow test`,
	// each Ok(()) or Err(message) so that `?` chains them.
	[]*Entry{
		native("Test.equal", "(a, a) -> Result(Unit, String)", "Ok(()) when actual == expected, else Err(\"expected E, got A\"); a line diff for multi-line strings and long lists.").req(EqualShow).flags(Long),
		native("Test.not_equal", "(a, a) -> Result(Unit, String)", "Ok(()) when the two values differ, else Err(\"expected a value other than V\").").req(EqualShow).flags(Long),
		native("Test.is_true", "(Bool, String) -> Result(Unit, String)", "Ok(()) when the condition holds, else Err(message)."),
		native("Test.is_ok", "(Result(a, e)) -> Result(Unit, String)", "Ok(()) for an Ok, else Err(\"expected Ok, got Err(…)\").").flags(Long),
		native("Test.is_err", "(Result(a, e)) -> Result(Unit, String)", "Ok(()) for an Err, else Err(\"expected Err, got Ok(…)\").").flags(Long),
		native("Test.is_some", "(Option(a)) -> Result(Unit, String)", "Ok(()) for a Some, else Err(\"expected Some, got None\").").flags(Long),
		native("Test.is_none", "(Option(a)) -> Result(Unit, String)", "Ok(()) for None, else Err(\"expected None, got Some(…)\").").flags(Long),
		native("Test.fail", "(String) -> Result(Unit, String)", "Err(message): a test that reaches it fails with the message."),
	},
)

// fsEntries are the file functions of module m (fs, and File, its alias).
func fsEntries(m string) []*Entry {
	return []*Entry{
		native(m+".read", "(String) -> Result(String, Int)", "The whole file as a String. Err 1 missing, 2 permission, 5 not a directory, 3 other (a directory, invalid UTF-8, over 64 MiB)."),
		native(m+".write", "(String, String) -> Result(Int, Int)", "Replaces the file atomically (a temporary file, then a rename): Ok of the bytes written."),
		native(m+".append", "(String, String) -> Result(Int, Int)", "Appends to the file (created if missing): Ok of the bytes written."),
		native(m+".exists", "(String) -> Bool", "Whether a file or directory exists at the path."),
		native(m+".delete", "(String) -> Result(Int, Int)", "Deletes a file or an empty directory: Ok(0)."),
		native(m+".size", "(String) -> Result(Int, Int)", "The file's size in bytes."),
		native(m+".list_dir", "(String) -> Result(List(String), Int)", "The names in a directory (no `.` or `..`), sorted; Err(3) over 1,048,576 entries."),
	}
}

// typeTable is every library type, in declaration order: a constructor
// written Module.Variant names the variant of the first type here that
// has it.
var typeTable = append(append(processTypes, supervisorTypes...), netTypes...)

// The Net module's handles (docs/io.md): opaque, equality by identity, no
// Show; they may travel in messages.
var netTypes = []*TypeDecl{
	{Name: "Net.Listener", Kind: Opaque, Derives: []string{"Eq"},
		Doc: "A listening TCP socket, owned by the process that opened it."},
	{Name: "Net.Socket", Kind: Opaque, Derives: []string{"Eq"},
		Doc: "A TCP connection carrying text lines, owned by one process at a time."},
}

// processTypes are the Process module's types.
var processTypes = []*TypeDecl{
	{Name: "Process.ExitReason", Kind: Sum, Derives: allCapabilities,
		Variants: []Variant{{Name: "Normal"}, {Name: "Shutdown"}, {Name: "ShutdownDetail", Fields: positional("String")},
			{Name: "Fault", Fields: positional("Int")}, {Name: "Failure", Fields: positional("String")},
			{Name: "Kill"}, {Name: "Killed"}, {Name: "NoProcess"}},
		Doc: "Why a process ended, as Down and Exit events and exit signals carry it."},
	{Name: "Process.Error", Kind: Sum, Derives: allCapabilities,
		Variants: []Variant{{Name: "ResourceLimit"}, {Name: "ForeignInvocation"}, {Name: "WrongMonitorOwner"},
			{Name: "UnsupportedTarget"}, {Name: "InvalidOptions"}},
		Doc: "Why a Process operation failed."},
	{Name: "Process.Event", Kind: Sum, Params: []string{"m"}, Derives: allCapabilities,
		Variants: []Variant{{Name: "Message", Fields: positional("m")},
			{Name: "Down", Fields: positional("MonitorRef", "ProcessId", "Process.ExitReason")},
			{Name: "Exit", Fields: positional("ProcessId", "Process.ExitReason")}},
		Doc: "What receive_event takes from the mailbox: a message, a Down of a monitor or a trapped Exit."},
	{Name: "Process.DemonitorOptions", Kind: Record, Derives: allCapabilities,
		Variants: []Variant{{Name: "DemonitorOptions", Fields: []Field{{"flush", "Bool"}, {"info", "Bool"}}}},
		Doc:      "The options of Process.demonitor."},
	{Name: "Process.CallError", Kind: Sum, Derives: allCapabilities,
		Variants: []Variant{{Name: "CallTimeout"}, {Name: "CallDown", Fields: positional("Process.ExitReason")},
			{Name: "CallRejected", Fields: positional("Int")}},
		Doc: "Why a Process.call got no reply: the timeout passed, the target died first (its reason), or the request was refused (send's code)."},
}

// The Supervisor module's types (docs/supervisors.md), in its tag orders.
// Error comes before ChildState, so Supervisor.Stopped and
// Supervisor.Restarting name the Error variants.
var supervisorTypes = []*TypeDecl{
	{Name: "Supervisor.Strategy", Kind: Sum, Derives: allCapabilities,
		Variants: []Variant{{Name: "OneForOne"}, {Name: "OneForAll"}, {Name: "RestForOne"}},
		Doc:      "Which siblings a restart affects."},
	{Name: "Supervisor.Restart", Kind: Sum, Derives: allCapabilities,
		Variants: []Variant{{Name: "Permanent"}, {Name: "Transient"}, {Name: "Temporary"}},
		Doc:      "When a child is restarted: always, after an abnormal exit, never."},
	{Name: "Supervisor.Shutdown", Kind: Sum, Derives: allCapabilities,
		Variants: []Variant{{Name: "Graceful", Fields: positional("Int")}, {Name: "Infinity"}, {Name: "Immediate"}},
		Doc:      "How a child is stopped: Shutdown then a kill after ms, Shutdown and wait, or a kill."},
	{Name: "Supervisor.AutoShutdown", Kind: Sum, Derives: allCapabilities,
		Variants: []Variant{{Name: "Never"}, {Name: "AnySignificant"}, {Name: "AllSignificant"}},
		Doc:      "Whether the natural exit of significant children stops the supervisor."},
	{Name: "Supervisor.Flags", Kind: Record, Derives: allCapabilities,
		Variants: []Variant{{Name: "Flags", Fields: []Field{{"strategy", "Supervisor.Strategy"}, {"intensity", "Int"},
			{"period_seconds", "Int"}, {"auto_shutdown", "Supervisor.AutoShutdown"}}}},
		Doc: "A supervisor's strategy, restart intensity within a period, and auto-shutdown."},
	{Name: "Supervisor.ChildPolicy", Kind: Record, Derives: allCapabilities,
		Variants: []Variant{{Name: "ChildPolicy", Fields: []Field{{"restart", "Supervisor.Restart"},
			{"shutdown", "Supervisor.Shutdown"}, {"significant", "Bool"}}}},
		Doc: "A child's restart type, shutdown and significance."},
	{Name: "Supervisor.Error", Kind: Sum, Derives: allCapabilities,
		Variants: []Variant{{Name: "InvalidOptions"}, {Name: "ResourceLimit"}, {Name: "ForeignInvocation"},
			{Name: "UnsupportedContext"}, {Name: "WrongChildKey"}, {Name: "DuplicateName"}, {Name: "AlreadyRunning"},
			{Name: "AlreadyPresent"}, {Name: "Restarting"}, {Name: "Stopped"}, {Name: "Removed"},
			{Name: "StartFailed", Fields: positional("String", "Process.ExitReason")}, {Name: "SupervisorStopped"}},
		Doc: "Why a Supervisor operation failed."},
	{Name: "Supervisor.ChildState", Kind: Sum, Derives: allCapabilities,
		Variants: []Variant{{Name: "Running", Fields: positional("ProcessId")}, {Name: "Stopped"}, {Name: "Restarting"}},
		Doc:      "A child's state in which_children."},
	{Name: "Supervisor.ChildKind", Kind: Sum, Derives: allCapabilities,
		Variants: []Variant{{Name: "Worker"}, {Name: "Branch"}},
		Doc:      "Whether a child is a worker or a nested supervisor."},
	{Name: "Supervisor.ChildInfo", Kind: Record, Derives: allCapabilities,
		Variants: []Variant{{Name: "ChildInfo", Fields: []Field{{"name", "String"}, {"kind", "Supervisor.ChildKind"},
			{"state", "Supervisor.ChildState"}}}},
		Doc: "One row of which_children."},
	{Name: "Supervisor.Handle", Kind: Opaque, Derives: []string{"Eq"},
		Doc: "A running (or retired) supervisor; equality compares identity."},
	{Name: "Supervisor.ChildKey", Kind: Opaque, Params: []string{"m"}, Derives: []string{"Eq"},
		Doc: "An unforgeable token for one child name, with the child's mailbox type."},
	{Name: "Supervisor.ChildSpec", Kind: Opaque, Derives: []string{"Eq"},
		Doc: "A validated child description (worker or branch)."},
}

var allCapabilities = []string{"Show", "Eq", "Ord", "Clone"}

func positional(types ...string) []Field {
	out := make([]Field, len(types))
	for i, t := range types {
		out[i] = Field{Type: t}
	}
	return out
}

// withFlags returns the entries with flags added to each.
func withFlags(flags Flags, entries ...*Entry) []*Entry {
	for _, e := range entries {
		e.Flags |= flags
	}
	return entries
}

func concat(lists ...[]*Entry) []*Entry {
	var out []*Entry
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// native is a builtin implemented by a Go native.
func native(name, sig, doc string) *Entry {
	return &Entry{Name: name, Sig: sig, Impl: ImplNative, Doc: doc}
}

// prelude is a builtin implemented by the Morrow prelude function fn.
func prelude(name, sig, fn, doc string) *Entry {
	return &Entry{Name: name, Sig: sig, Impl: ImplPrelude, PreludeFn: fn, Doc: doc}
}

// opcode is a builtin that codegen lowers to instructions.
func opcode(name, sig string, lower Lowering, doc string) *Entry {
	return &Entry{Name: name, Sig: sig, Impl: ImplOpcode, Lower: lower, Doc: doc}
}

// labels makes the builtin take the required parameter labels ls.
func (e *Entry) labels(ls ...string) *Entry { e.Labels = ls; return e }

// context says where the builtin may be called from.
func (e *Entry) context(c Context) *Entry { e.Context = c; return e }

// rule names the builtin's special typing rule.
func (e *Entry) rule(r Rule) *Entry { e.Rule = r; return e }

// req puts a capability requirement on the builtin's type parameter.
func (e *Entry) req(r Req) *Entry { e.Req = r; return e }

// flags adds flags to the builtin.
func (e *Entry) flags(f Flags) *Entry { e.Flags |= f; return e }

// mailbox names the type variable of the mailbox the call fixes.
func (e *Entry) mailbox(v string) *Entry { e.Mailbox = v; return e }

// reply names the type variable of a reply that crosses processes.
func (e *Entry) reply(v string) *Entry { e.Reply = v; return e }
