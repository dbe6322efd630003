%% Erlang twin of signal_independent.mr (see that file for what is observed).
%% signal_exit is exit/2; no scenario sends normal to self().
-module(signal_independent).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, bool/1]).

main() -> morrow_obs:run(fun observer/0).

signaller(Target, Direct, Final) ->
    receive go -> true = exit(Target, Direct), exit(Final) end.

trapper(To, ObserverId) ->
    Was = process_flag(trap_exit, true),
    To ! {text, ["trap_exit was ", bool(Was)]},
    receive
        {'EXIT', Who, Reason} ->
            To ! {text, ["exit ", reason(Reason), " from observer ", bool(Who =:= ObserverId)]}
    end.

checked(What, true) -> say([What, " ok"]).

observer() ->
    Own = self(),
    Me = self(),
    Was = process_flag(trap_exit, true),
    say(["trap_exit was ", bool(Was)]),

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
    receive {'DOWN', R2, process, _, Reason2} -> say(["down ", reason(Reason2)]) end,
    checked("unlink after signal", unlink(W2)),
    next_event(),
    next_event(),
    drain(),

    checked("signal dead process", exit(W2, {failure, "late"})),
    drain(),

    checked("signal self", exit(Me, shutdown)),
    receive {'EXIT', Who3, Reason3} -> say(["exit ", reason(Reason3), " from self ", bool(Who3 =:= Me)]) end,
    drain(),

    {T, R3} = spawn_monitor(fun() -> trapper(Own, Me) end),
    receive {text, T1} -> say(["trapper: ", T1]) end,
    checked("signal trapper", exit(T, {shutdown, "bye"})),
    receive {text, T2} -> say(["trapper: ", T2]) end,
    receive {'DOWN', R3, process, _, Reason4} -> say(["trapper: down ", reason(Reason4)]) end,
    drain().

next_event() ->
    receive
        {text, Text} -> say(["message ", Text]);
        {'DOWN', _, process, _, Reason} -> say(["down ", reason(Reason)]);
        {'EXIT', _, Reason} -> say(["exit ", reason(Reason)])
    end.

drain() ->
    receive
        {text, Text} -> say(["unexpected message ", Text]);
        {'DOWN', _, process, _, Reason} -> say(["unexpected down ", reason(Reason)]);
        {'EXIT', _, Reason} -> say(["unexpected exit ", reason(Reason)])
    after 0 -> say("no more events")
    end.
