%% Erlang twin of demonitor_active.mr (see that file for what is observed).
-module(demonitor_active).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, bool/1]).

main() -> morrow_obs:run(fun observer/0).

idle() ->
    receive go -> ok end.

report(What, Result) ->
    say(["demonitor ", What, " ", bool(Result)]).

observer() ->
    W = spawn(fun idle/0),
    Control = morrow_obs:monitor(W),
    R1 = morrow_obs:monitor(W),
    R2 = morrow_obs:monitor(W),
    R3 = morrow_obs:monitor(W),
    R4 = morrow_obs:monitor(W),
    report("active flush=false info=false", morrow_obs:demonitor(R1, false, false)),
    report("active flush=true info=false", morrow_obs:demonitor(R2, true, false)),
    report("active flush=false info=true", morrow_obs:demonitor(R3, false, true)),
    report("active flush=true info=true", morrow_obs:demonitor(R4, true, true)),
    report("cancelled flush=false info=true", morrow_obs:demonitor(R3, false, true)),
    report("cancelled flush=true info=true", morrow_obs:demonitor(R1, true, true)),
    report("cancelled flush=false info=false", morrow_obs:demonitor(R4, false, false)),
    W ! go,
    receive {'DOWN', Control, process, _, Reason} -> say(["down control ", reason(Reason)]) end,
    receive
        {'DOWN', _, process, _, Other} -> say(["unexpected down ", reason(Other)])
    after 0 -> say("no more events")
    end.
