%% Erlang twin of demonitor_consumed.mr (see that file for what is observed).
-module(demonitor_consumed).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, bool/1]).

main() -> morrow_obs:run(fun observer/0).

idle() ->
    receive go -> ok end.

report(What, Result) ->
    say(["demonitor ", What, " ", bool(Result)]).

observer() ->
    W = spawn(fun idle/0),
    R1 = morrow_obs:monitor(W),
    R2 = morrow_obs:monitor(W),
    R3 = morrow_obs:monitor(W),
    R4 = morrow_obs:monitor(W),
    W ! go,
    receive {'DOWN', R1, process, _, Reason1} -> say(["first monitor: down ", reason(Reason1)]) end,
    receive {'DOWN', R2, process, _, Reason2} -> say(["second monitor: down ", reason(Reason2)]) end,
    receive {'DOWN', R3, process, _, Reason3} -> say(["third monitor: down ", reason(Reason3)]) end,
    receive {'DOWN', R4, process, _, Reason4} -> say(["fourth monitor: down ", reason(Reason4)]) end,
    report("consumed flush=false info=false", morrow_obs:demonitor(R1, false, false)),
    report("consumed flush=true info=false", morrow_obs:demonitor(R2, true, false)),
    report("consumed flush=false info=true", morrow_obs:demonitor(R3, false, true)),
    report("consumed flush=true info=true", morrow_obs:demonitor(R4, true, true)),
    receive
        {'DOWN', _, process, _, Other} -> say(["unexpected down ", reason(Other)])
    after 0 -> say("no more events")
    end.
