%% Erlang twin of monitor_dead.mr (see that file for what is observed).
-module(monitor_dead).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, bool/1]).

main() -> morrow_obs:run(fun observer/0).

idle() ->
    receive go -> ok end.

crash(Code) ->
    receive go -> exit({fault, Code}) end.

observer() ->
    W = spawn(fun idle/0),
    R1 = morrow_obs:monitor(W),
    W ! go,
    receive {'DOWN', R1, process, _, Reason1} -> say(["down ", reason(Reason1)]) end,
    R2 = morrow_obs:monitor(W),
    say(["monitor dead ok, fresh ", bool(R2 =/= R1)]),
    receive
        {'DOWN', R2, process, Who, Reason2} ->
            say(["down ", reason(Reason2), " from worker ", bool(Who =:= W)])
    end,
    C = spawn(fun() -> crash(7) end),
    R3 = morrow_obs:monitor(C),
    C ! go,
    receive {'DOWN', R3, process, _, Reason3} -> say(["down ", reason(Reason3)]) end,
    R4 = morrow_obs:monitor(C),
    R5 = morrow_obs:monitor(C),
    say(["two late monitors distinct ", bool(R4 =/= R5)]),
    receive {'DOWN', R5, process, _, Reason5} -> say(["down ", reason(Reason5)]) end,
    receive {'DOWN', R4, process, _, Reason4} -> say(["down ", reason(Reason4)]) end,
    receive
        {'DOWN', _, process, _, Reason} -> say(["unexpected down ", reason(Reason)])
    after 0 -> say("no more events")
    end.
