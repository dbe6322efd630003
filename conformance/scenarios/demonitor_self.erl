%% Erlang twin of demonitor_self.mr (see that file for what is observed).
-module(demonitor_self).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, bool/1]).

main() -> morrow_obs:run(fun observer/0).

report(What, Result) ->
    say(["demonitor ", What, " ", bool(Result)]).

observer() ->
    Me = self(),
    R1 = morrow_obs:monitor(Me),
    R2 = morrow_obs:monitor(Me),
    R3 = morrow_obs:monitor(Me),
    R4 = morrow_obs:monitor(Me),
    say(["self monitors distinct ", bool(R1 =/= R2 andalso R2 =/= R3 andalso R3 =/= R4)]),
    report("self flush=false info=false", morrow_obs:demonitor(R1, false, false)),
    report("self flush=true info=false", morrow_obs:demonitor(R2, true, false)),
    report("self flush=false info=true", morrow_obs:demonitor(R3, false, true)),
    report("self flush=true info=true", morrow_obs:demonitor(R4, true, true)),
    R5 = morrow_obs:monitor(Me),
    report("self kept flush=false info=true", morrow_obs:demonitor(R5, false, true)),
    receive
        {'DOWN', _, process, _, Other} -> say(["unexpected down ", reason(Other)])
    after 0 -> say("no more events")
    end.
