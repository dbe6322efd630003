%% morrow_obs: the one place where Erlang/OTP observations are mapped onto
%% Morrow's vocabulary for the conformance suite (docs/conformance.md has
%% the same table in prose). Every Erlang scenario prints through this
%% module; no scenario spells a Morrow reason by hand.
%%
%% Deliberate differences between the Morrow process model and OTP that
%% are mapped here:
%%
%%   * Typed reasons. Morrow's Process.ExitReason is a closed sum; Erlang
%%     reasons are arbitrary terms. The Erlang scenarios encode the Morrow
%%     constructors as the terms in reason/1 below, and checked faults are
%%     the Erlang errors with the same cause (badarith for division by
%%     zero = Fault(1), badarg from hd/1 = Fault(4)).
%%   * NoProcess is OTP's noproc, including the {noproc, Stack} error that
%%     link/1 raises in a caller that does not trap exits (Morrow terminates
%%     that caller with NoProcess).
%%   * Killed/Kill are OTP's killed/kill (same rules: a direct kill is
%%     untrappable and reports killed; a kill that travels over a link or is
%%     a local exit reason is an ordinary reason).
%%   * Monitoring a dead process: Morrow queues Down(NoProcess)
%%     synchronously inside Process.monitor; OTP delivers the noproc DOWN as
%%     an asynchronous signal, and a demonitor issued before it arrives
%%     still finds the monitor active. monitor/1 below waits until the DOWN
%%     is in the message queue, which is the state Morrow is in on return.
%%   * DemonitorOptions(flush, info) is the option list [flush, info].
%%   * Monitoring oneself: OTP 25 agrees with Morrow (a fresh reference, no
%%     DOWN, demonitor with info returns false), so nothing is mapped.
%%   * A Morrow defer is try ... after. Morrow runs cleanup when an exit
%%     signal (other than a direct Kill) terminates a process; OTP runs no
%%     code in a process an exit signal terminates. Scenarios observe
%%     cleanup only where the models agree: Process.exit / exit/1, checked
%%     faults, and direct Kill (neither runs it).
%%   * Signal-only details: exit(self(), normal) has an OTP special case and
%%     is never used; a Morrow self-signal with Normal is not compared.
%%   * Finite quotas (256 lifecycle reservations per process, 4,096 per
%%     invocation, 4,096-byte reason text), WrongMonitorOwner and the
%%     first-committed-reason rule for faulting cleanup have no OTP
%%     counterpart and are not compared.
%%
%% The supervisor scenarios (conformance/supervisor/) add the mappings of
%% docs/supervisors.md's Supervisor module, registry and typed call; they are
%% listed with the functions below (sup_start/2 onwards) and in
%% docs/conformance.md.
-module(morrow_obs).
%% register/2, whereis/1 and unregister/1 below are the Morrow registry
%% API; they call the BIFs as erlang:register/2 and so on.
-compile({no_auto_import, [register/2, whereis/1, unregister/1]}).

-export([run/1, say/1, reason/1, bool/1, monitor/1, demonitor/3,
         options/2, await_queued/1]).
%% The observer steps the scenarios share (they map nothing).
-export([idle/0, wait_then_exit/1, checked/2, show_trap_exit/1, down/2,
         next_event/0, drain/0, release/2, demonitor_options/0, demonitor_each/2,
         demonitored/4, trapper/2]).
%% The Supervisor module, the registry and typed call (docs/supervisors.md),
%% used by the scenarios in conformance/supervisor/.
-export([init/1, sup_start/2, stop/1, which_children/1, current/2, settle/3,
         terminate_child/2, restart_child/2, delete_child/2, start_child/2,
         result/1, children/1, register/2, whereis/1, unregister/1,
         option/1, call/3, call_result/1]).

%% run(Observer) is the body of every scenario's main/0: it silences the
%% logger (crash reports of deliberately failing processes would otherwise
%% be printed on standard output), runs Observer in a fresh process (so it
%% starts with trap_exit off, like a Morrow process) and waits for it.
%% An observer that does not end normally halts the node with status 1.
run(Observer) when is_function(Observer, 0) ->
    ok = logger:set_primary_config(level, none),
    {Pid, Ref} = spawn_monitor(Observer),
    receive
        {'DOWN', Ref, process, Pid, normal} ->
            ok;
        {'DOWN', Ref, process, Pid, Other} ->
            io:format(standard_error, "observer ended with ~p~n", [Other]),
            erlang:halt(1)
    end.

%% say(Line) prints one observation line (an iolist) on standard output.
say(Line) ->
    io:format("~ts~n", [iolist_to_binary(Line)]).

%% reason(Term) renders an Erlang exit reason as the Morrow reason it
%% stands for, in the spelling the Morrow scenarios print:
%%
%%   Morrow                      Erlang term             printed
%%   Normal                      normal                  normal
%%   Shutdown                    shutdown                shutdown
%%   ShutdownDetail(t)           {shutdown, t}           shutdown_detail:t
%%   Fault(n) (explicit exit)    {fault, n}              fault:n
%%   Fault(1) (checked)          {badarith, Stack}       fault:1
%%   Fault(4) (checked)          {badarg, [{erlang,hd,_,_}|_]}  fault:4
%%   Failure(t)                  {failure, t}            failure:t
%%   Kill                        kill                    kill
%%   Killed                      killed                  killed
%%   NoProcess                   noproc                  no_process
%%   NoProcess (link, untrapped) {noproc, Stack}         no_process
%%   Shutdown (failed start-up)  {shutdown, {failed_to_start_child, _, _}}  shutdown
%%
%% Anything else is printed as unmapped:<term>, which no Morrow scenario
%% prints, so the comparison fails loudly instead of guessing.
reason(normal) -> "normal";
reason(shutdown) -> "shutdown";
reason({shutdown, Text}) when is_list(Text) -> ["shutdown_detail:", Text];
reason({fault, Code}) when is_integer(Code) -> ["fault:", integer_to_list(Code)];
reason({badarith, Stack}) when is_list(Stack) -> "fault:1";
reason({badarg, [{erlang, hd, _, _} | _]}) -> "fault:4";
reason({failure, Text}) when is_list(Text) -> ["failure:", Text];
reason(kill) -> "kill";
reason(killed) -> "killed";
reason(noproc) -> "no_process";
reason({noproc, [{erlang, link, _, _} | _]}) -> "no_process";
%% A supervisor whose start-up failed exits with Shutdown in Morrow
%% (docs/supervisors.md); OTP's exits with {shutdown, {failed_to_start_child,
%% Id, Reason}}.
reason({shutdown, {failed_to_start_child, _, _}}) -> "shutdown";
reason(Other) -> ["unmapped:", io_lib:format("~0p", [Other])].

bool(true) -> "true";
bool(false) -> "false".

%% monitor(Pid) is Process.monitor: a fresh reference; when the target is
%% already dead, it returns only once the noproc DOWN is queued (see the
%% module comment).
monitor(Pid) ->
    Ref = erlang:monitor(process, Pid),
    case erlang:is_process_alive(Pid) of
        true -> ok;
        false -> await_queued(Ref)
    end,
    Ref.

%% await_queued(Ref) waits, without consuming anything, until a DOWN for
%% Ref is in the caller's message queue.
await_queued(Ref) ->
    {messages, Queue} = erlang:process_info(self(), messages),
    case [M || {'DOWN', R, _, _, _} = M <- Queue, R =:= Ref] of
        [_ | _] ->
            ok;
        [] ->
            erlang:yield(),
            await_queued(Ref)
    end.

%% demonitor(Ref, Flush, Info) is Process.demonitor(Ref,
%% Process.DemonitorOptions(Flush, Info)).
demonitor(Ref, Flush, Info) ->
    erlang:demonitor(Ref, options(Flush, Info)).

options(Flush, Info) ->
    [flush || Flush] ++ [info || Info].

%% ---- Observer steps shared by the scenarios ----------------------------
%%
%% These map nothing; they are the steps many observers repeat. A user
%% message in the scenarios is go, an integer or {text, Text}.

%% idle() is a worker that waits for go and ends normally; wait_then_exit(R)
%% waits for go and exits with R (docs/conformance.md, "No races").
idle() ->
    receive go -> ok end.

wait_then_exit(Reason) ->
    receive go -> exit(Reason) end.

%% checked(What, Result) prints "WHAT ok" for an operation that answers
%% true (link/1, unlink/1, exit/2); any other answer fails the observer.
checked(What, true) -> say([What, " ok"]).

%% trapper(To, From) is a worker that traps exits, sends To its previous
%% trap_exit setting as text, waits for one Exit and sends it to To as
%% text, saying whether it came from From.
trapper(To, From) ->
    Was = process_flag(trap_exit, true),
    To ! {text, ["trap_exit was ", bool(Was)]},
    receive
        {'EXIT', Who, Reason} ->
            To ! {text, ["exit ", reason(Reason), " from observer ", bool(Who =:= From)]}
    end.

%% show_trap_exit(B) is Process.trap_exit(B), printing the previous setting.
show_trap_exit(B) ->
    Was = process_flag(trap_exit, B),
    say(["trap_exit was ", bool(Was)]).

%% down(Label, Ref) waits for the Down of monitor Ref and prints
%% "LABELdown REASON".
down(Label, Ref) ->
    receive {'DOWN', Ref, process, _, Reason} -> say([Label, "down ", reason(Reason)]) end.

%% next_event() waits for the next event of any kind and prints it.
next_event() -> event("", infinity).

%% drain() is the barrier that ends a step: an event still queued is
%% printed as unexpected, otherwise "no more events".
drain() -> event("unexpected ", 0).

event(Prefix, Timeout) ->
    receive
        go -> say([Prefix, "message"]);
        N when is_integer(N) -> say([Prefix, "message ", integer_to_list(N)]);
        {text, Text} -> say([Prefix, "message ", Text]);
        {'DOWN', _, process, _, Reason} -> say([Prefix, "down ", reason(Reason)]);
        {'EXIT', _, Reason} -> say([Prefix, "exit ", reason(Reason)])
    after Timeout -> say("no more events")
    end.

%% release(W, Events) monitors W, a worker waiting for go, sends it go,
%% prints the Events events that follow and drains.
release(W, Events) ->
    _ = monitor(W),
    W ! go,
    [next_event() || _ <- lists:seq(1, Events)],
    drain().

%% demonitor_options() are the four DemonitorOptions(flush, info), in the
%% order the demonitor scenarios try them.
demonitor_options() -> [{false, false}, {true, false}, {false, true}, {true, true}].

%% demonitor_each(State, Refs) demonitors the Nth reference with the Nth of
%% demonitor_options() and prints "demonitor STATE flush=F info=I RESULT".
demonitor_each(State, Refs) ->
    [demonitored(State, Ref, Flush, Info)
     || {Ref, {Flush, Info}} <- lists:zip(Refs, lists:sublist(demonitor_options(), length(Refs)))],
    ok.

%% demonitored(State, Ref, Flush, Info) is demonitor/3, printed.
demonitored(State, Ref, Flush, Info) ->
    say(["demonitor ", State, " flush=", bool(Flush), " info=", bool(Info), " ",
         bool(demonitor(Ref, Flush, Info))]).

%% ---- Supervisor (docs/supervisors.md) ------------------------------------
%%
%%   Morrow                                  OTP 25
%%   Supervisor.start(flags, children)       sup_start(Flags, Specs): supervisor:start_link
%%                                           from a short-lived middle process that unlinks
%%                                           it (OTP has no unlinked supervisor start)
%%   Supervisor.Flags(s, i, p, a)            #{strategy, intensity, period, auto_shutdown}
%%   OneForOne / OneForAll / RestForOne      one_for_one / one_for_all / rest_for_one
%%   Never / AnySignificant / AllSignificant never / any_significant / all_significant
%%   Supervisor.worker(key, entry, policy)   #{id, start => {M, F, A}, type => worker, ...}
%%   Supervisor.branch(name, f, cs, policy)  #{id, start => {supervisor, start_link,
%%                                           [morrow_obs, {F, Cs}]}, type => supervisor}
%%   ChildPolicy(restart, shutdown, sig)     restart, shutdown, significant
%%   Graceful(ms) / Infinity / Immediate     Ms / infinity / brutal_kill
%%   Process.init_ack()                      proc_lib:init_ack({ok, self()})
%%   Process.init_fail(r)                    proc_lib:init_ack({error, R}), exit(R)
%%   Supervisor.stop(h)                      gen_server:stop(Sup) (OTP 25: no supervisor:stop)
%%   Supervisor.current(h, key)              current(Sup, Id): the row of which_children
%%   Err(Removed)                            {error, not_found}
%%   Err(AlreadyRunning)                     {error, running}, {error, {already_started, _}}
%%   Err(AlreadyPresent)                     {error, already_present}
%%   Err(Restarting)                         {error, restarting}
%%   Err(StartFailed(name, r))               {error, {shutdown, {failed_to_start_child, Id, R}}}
%%                                           (start), {error, R} (restart_child),
%%                                           {error, {R, Child}} (start_child)
%%   which_children in declaration order     which_children reversed (OTP lists the
%%                                           children in termination order)
%%   ChildState Running / Stopped / Restarting  Pid / undefined / restarting
%%
%% Child ids are atoms; Morrow names are the atoms' text.

%% init/1 is the supervisor callback: the flags and specs are the argument.
init({Flags, Specs}) -> {ok, {Flags, Specs}}.

%% sup_start(Flags, Specs) is Supervisor.start: {ok, Sup} or
%% {error, {start_failed, Id, Reason}}.
sup_start(Flags, Specs) ->
    Self = self(),
    Tag = make_ref(),
    spawn(fun() ->
                  process_flag(trap_exit, true),
                  R = supervisor:start_link(?MODULE, {Flags, Specs}),
                  case R of
                      {ok, Sup} -> unlink(Sup);
                      _ -> ok
                  end,
                  Self ! {Tag, R}
          end),
    receive
        {Tag, {ok, Sup}} -> {ok, Sup};
        {Tag, {error, {shutdown, {failed_to_start_child, Id, R}}}} -> {error, {start_failed, Id, R}}
    end.

%% stop(Sup) is Supervisor.stop.
stop(Sup) -> gen_server:stop(Sup).

%% which_children(Sup) is Supervisor.which_children: [{Id, Kind, State}]
%% in declaration order, Kind worker | branch, State running | stopped |
%% restarting.
which_children(Sup) ->
    [{Id, kind(Type), state(Child)} || {Id, Child, Type, _} <- lists:reverse(supervisor:which_children(Sup))].

kind(worker) -> worker;
kind(supervisor) -> branch.

state(restarting) -> restarting;
state(undefined) -> stopped;
state(Pid) when is_pid(Pid) -> running.

%% current(Sup, Id) is Supervisor.current with the child's own key:
%% {ok, Pid} or {error, stopped | restarting | removed}.
current(Sup, Id) ->
    case lists:keyfind(Id, 1, supervisor:which_children(Sup)) of
        {Id, Pid, _, _} when is_pid(Pid) -> {ok, Pid};
        {Id, restarting, _, _} -> {error, restarting};
        {Id, undefined, _, _} -> {error, stopped};
        false -> {error, removed}
    end.

%% settle(Sup, Id, Old) asks current(Sup, Id) until it no longer answers
%% {ok, Old}, and returns that answer: the supervisor has handled Old's
%% exit (a request waits while a restart is in progress, so after a group
%% restart every child of the group is up again).
settle(Sup, Id, Old) ->
    case current(Sup, Id) of
        {ok, Old} -> erlang:yield(), settle(Sup, Id, Old);
        Other -> Other
    end.

%% The management requests, in Morrow's result shapes: ok or
%% {error, Atom | {start_failed, Id, Reason}}.
terminate_child(Sup, Id) ->
    case supervisor:terminate_child(Sup, Id) of
        ok -> ok;
        {error, not_found} -> {error, removed}
    end.

restart_child(Sup, Id) ->
    case supervisor:restart_child(Sup, Id) of
        {ok, _} -> ok;
        {ok, _, _} -> ok;
        {error, not_found} -> {error, removed};
        {error, running} -> {error, already_running};
        {error, restarting} -> {error, restarting};
        {error, Reason} -> {error, {start_failed, Id, Reason}}
    end.

delete_child(Sup, Id) ->
    case supervisor:delete_child(Sup, Id) of
        ok -> ok;
        {error, not_found} -> {error, removed};
        {error, running} -> {error, already_running};
        {error, restarting} -> {error, restarting}
    end.

start_child(Sup, #{id := Id} = Spec) ->
    case supervisor:start_child(Sup, Spec) of
        {ok, _} -> ok;
        {ok, _, _} -> ok;
        {error, {already_started, _}} -> {error, already_running};
        {error, already_present} -> {error, already_present};
        {error, {Reason, _Child}} -> {error, {start_failed, Id, Reason}}
    end.

%% result(R) prints a Result as the Morrow scenarios do: Ok, or Err(E)
%% with E a Supervisor.Error, Process.Error or Process.CallError.
result(ok) -> "Ok";
result({ok, _}) -> "Ok";
result({error, E}) -> ["Err(", error_text(E), ")"].

error_text({start_failed, Id, R}) -> ["StartFailed(", atom_to_list(Id), ", ", reason(R), ")"];
error_text({call_down, R}) -> ["CallDown(", reason(R), ")"];
error_text({call_rejected, N}) -> ["CallRejected(", integer_to_list(N), ")"];
error_text(call_timeout) -> "CallTimeout";
error_text(removed) -> "Removed";
error_text(stopped) -> "Stopped";
error_text(restarting) -> "Restarting";
error_text(already_running) -> "AlreadyRunning";
error_text(already_present) -> "AlreadyPresent";
error_text(invalid_options) -> "InvalidOptions".

%% children(Rows) prints which_children's rows: name:kind:state, space
%% separated.
children(Rows) ->
    lists:join(" ", [[atom_to_list(Id), ":", atom_to_list(K), ":", atom_to_list(S)] || {Id, K, S} <- Rows]).

%% ---- Registry (docs/reference/runtime.md#features-beyond-the-core-language, docs/supervisors.md) ------------------------
%%
%%   Process.register(name, pid)   register(list_to_atom(Name), Pid): true, or badarg
%%                                 (name taken, process dead or already named) ->
%%                                 Err(InvalidOptions)
%%   Process.whereis(name)         whereis: Pid -> Some, undefined -> None
%%   Process.unregister(name)      unregister: true, or badarg -> false

register(Name, Pid) ->
    try erlang:register(list_to_atom(Name), Pid) of
        true -> ok
    catch
        error:badarg -> {error, invalid_options}
    end.

whereis(Name) ->
    case erlang:whereis(list_to_atom(Name)) of
        undefined -> none;
        Pid -> {some, Pid}
    end.

unregister(Name) ->
    try erlang:unregister(list_to_atom(Name))
    catch error:badarg -> false
    end.

option(none) -> "None";
option({some, _}) -> "Some".

%% ---- Typed call (docs/reference/runtime.md#features-beyond-the-core-language, docs/supervisors.md) ----------------------
%%
%%   Process.call(pid, request, timeout)  gen_server:call(Pid, Request, Timeout)
%%   Ok(reply)                            Reply
%%   Err(CallTimeout)                     exit {timeout, {gen_server, call, _}}
%%   Err(CallDown(r))                     exit {R, {gen_server, call, _}}: the server
%%                                        died with R while the call was pending
%%   Err(CallRejected(3))                 exit {noproc, {gen_server, call, _}}: the server
%%                                        was dead when the call was made
%%   negative timeout                     infinity

call(Server, Request, Timeout) ->
    T = if Timeout < 0 -> infinity; true -> Timeout end,
    try gen_server:call(Server, Request, T) of
        Reply -> {ok, Reply}
    catch
        exit:{timeout, {gen_server, call, _}} -> {error, call_timeout};
        exit:{noproc, {gen_server, call, _}} -> {error, {call_rejected, 3}};
        exit:{Reason, {gen_server, call, _}} -> {error, {call_down, Reason}}
    end.

%% call_result(R) prints a call's Result(Int, Process.CallError).
call_result({ok, N}) when is_integer(N) -> ["Ok(", integer_to_list(N), ")"];
call_result(R) -> result(R).
