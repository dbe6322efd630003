%% Erlang twin of signal_independent.mr (see that file for what is observed).
%% signal_exit is exit/2; no scenario sends normal to self().
-module(signal_independent).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, bool/1, checked/2, next_event/0, drain/0]).

main() -> morrow_obs:run(fun observer/0).

signaller(Target, Direct, Final) ->
    receive go -> true = exit(Target, Direct), exit(Final) end.

observer() ->
    Own = self(),
    Me = self(),
    morrow_obs:show_trap_exit(true),

    W1 = spawn_link(fun() -> signaller(Me, {failure, "direct"}, {failure, "end"}) end),
    _ = morrow_obs:monitor(W1),
    checked("unlink before signal", unlink(W1)),
    W1 ! go,
    receive {'EXIT', Who1, Reason1} -> say(["exit ", reason(Reason1), " from worker ", bool(Who1 =:= W1)]) end,
    next_event(),
    drain(),

    W2 = spawn_link(fun() -> signaller(Me, shutdown, {failure, "closed"}) end),
    R2 = morrow_obs:monitor(W2),
    W2 ! go,
    morrow_obs:down("", R2),
    checked("unlink after signal", unlink(W2)),
    next_event(),
    next_event(),
    drain(),

    checked("signal dead process", exit(W2, {failure, "late"})),
    drain(),

    checked("signal self", exit(Me, shutdown)),
    receive {'EXIT', Who3, Reason3} -> say(["exit ", reason(Reason3), " from self ", bool(Who3 =:= Me)]) end,
    drain(),

    {T, R3} = spawn_monitor(fun() -> morrow_obs:trapper(Own, Me) end),
    receive {text, T1} -> say(["trapper: ", T1]) end,
    checked("signal trapper", exit(T, {shutdown, "bye"})),
    receive {text, T2} -> say(["trapper: ", T2]) end,
    morrow_obs:down("trapper: ", R3),
    drain().
