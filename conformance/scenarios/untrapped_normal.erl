%% Erlang twin of untrapped_normal.mr (see that file for what is observed).
%% exit(Pid, normal) is only ever sent to another process (never to self()).
-module(untrapped_normal).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, bool/1]).

main() -> morrow_obs:run(fun observer/0).

child_wait() ->
    receive go -> ok end.

watcher(To) ->
    C = spawn_link(fun child_wait/0),
    R = morrow_obs:monitor(C),
    C ! go,
    receive
        {'DOWN', R, process, _, Reason} ->
            To ! {text, ["linked child down ", reason(Reason), ", still running"]}
    end,
    receive ping -> To ! {text, "alive after direct signal"} end,
    receive stop -> ok end.

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
    {W, R1} = spawn_monitor(fun() -> watcher(Own) end),
    receive {text, T1} -> say(["watcher: ", T1]) end,
    checked("signal normal to watcher", exit(W, normal)),
    W ! ping,
    receive {text, T2} -> say(["watcher: ", T2]) end,
    W ! stop,
    receive {'DOWN', R1, process, _, Reason1} -> say(["watcher: down ", reason(Reason1)]) end,
    {T, R2} = spawn_monitor(fun() -> trapper(Own, Me) end),
    receive {text, T3} -> say(["trapper: ", T3]) end,
    checked("signal normal to trapper", exit(T, normal)),
    receive {text, T4} -> say(["trapper: ", T4]) end,
    receive {'DOWN', R2, process, _, Reason2} -> say(["trapper: down ", reason(Reason2)]) end,
    receive
        {text, Text} -> say(["unexpected message ", Text]);
        {'DOWN', _, process, _, Reason} -> say(["unexpected down ", reason(Reason)]);
        {'EXIT', _, Reason} -> say(["unexpected exit ", reason(Reason)])
    after 0 -> say("no more events")
    end.
