%% Erlang twin of demonitor_queued.mr (see that file for what is observed).
%% morrow_obs:monitor/1 returns once the noproc DOWN is queued, the state
%% Process.monitor leaves a Morrow process in.
-module(demonitor_queued).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, bool/1]).

main() -> morrow_obs:run(fun observer/0).

idle() ->
    receive go -> ok end.

report(What, Result) ->
    say(["demonitor ", What, " ", bool(Result)]).

queued(Label, Ref) ->
    receive
        {'DOWN', Ref, process, _, Reason} -> say([Label, ": down ", reason(Reason)])
    after 0 -> say([Label, ": nothing queued"])
    end.

observer() ->
    W = spawn(fun idle/0),
    First = morrow_obs:monitor(W),
    W ! go,
    receive {'DOWN', First, process, _, Reason} -> say(["down ", reason(Reason)]) end,
    R1 = morrow_obs:monitor(W),
    R2 = morrow_obs:monitor(W),
    R3 = morrow_obs:monitor(W),
    R4 = morrow_obs:monitor(W),
    report("queued flush=false info=false", morrow_obs:demonitor(R1, false, false)),
    report("queued flush=true info=false", morrow_obs:demonitor(R2, true, false)),
    report("queued flush=false info=true", morrow_obs:demonitor(R3, false, true)),
    report("queued flush=true info=true", morrow_obs:demonitor(R4, true, true)),
    queued("first monitor", R1),
    queued("second monitor", R2),
    queued("third monitor", R3),
    queued("fourth monitor", R4),
    receive
        {'DOWN', _, process, _, Other} -> say(["unexpected down ", reason(Other)])
    after 0 -> say("no more events")
    end.
