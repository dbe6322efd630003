%% Erlang twin of two_monitors.mr (see that file for what is observed).
-module(two_monitors).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, bool/1]).

main() -> morrow_obs:run(fun observer/0).

head_of(First, Xs) ->
    receive go -> say(["head ", integer_to_list(First + hd(Xs))]) end.

observer() ->
    W = spawn(fun morrow_obs:idle/0),
    R1 = morrow_obs:monitor(W),
    R2 = morrow_obs:monitor(W),
    say(["distinct ", bool(R1 =/= R2)]),
    W ! go,
    receive
        {'DOWN', R2, process, Who2, Reason2} ->
            say(["down second ", reason(Reason2), " from worker ", bool(Who2 =:= W)])
    end,
    receive
        {'DOWN', R1, process, Who1, Reason1} ->
            say(["down first ", reason(Reason1), " from worker ", bool(Who1 =:= W)])
    end,
    Empty = [],
    F = spawn(fun() -> head_of(1, Empty) end),
    R3 = morrow_obs:monitor(F),
    R4 = morrow_obs:monitor(F),
    F ! go,
    receive {'DOWN', R3, process, _, Reason3} -> say(["down third ", reason(Reason3)]) end,
    receive {'DOWN', R4, process, _, Reason4} -> say(["down fourth ", reason(Reason4)]) end,
    morrow_obs:drain().
