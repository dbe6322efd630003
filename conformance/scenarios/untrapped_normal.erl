%% Erlang twin of untrapped_normal.mr (see that file for what is observed).
%% exit(Pid, normal) is only ever sent to another process (never to self()).
-module(untrapped_normal).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, checked/2, down/2]).

main() -> morrow_obs:run(fun observer/0).

watcher(To) ->
    C = spawn_link(fun morrow_obs:idle/0),
    R = morrow_obs:monitor(C),
    C ! go,
    receive
        {'DOWN', R, process, _, Reason} ->
            To ! {text, ["linked child down ", reason(Reason), ", still running"]}
    end,
    receive ping -> To ! {text, "alive after direct signal"} end,
    receive stop -> ok end.

observer() ->
    Own = self(),
    Me = self(),
    {W, R1} = spawn_monitor(fun() -> watcher(Own) end),
    receive {text, T1} -> say(["watcher: ", T1]) end,
    checked("signal normal to watcher", exit(W, normal)),
    W ! ping,
    receive {text, T2} -> say(["watcher: ", T2]) end,
    W ! stop,
    down("watcher: ", R1),
    {T, R2} = spawn_monitor(fun() -> morrow_obs:trapper(Own, Me) end),
    receive {text, T3} -> say(["trapper: ", T3]) end,
    checked("signal normal to trapper", exit(T, normal)),
    receive {text, T4} -> say(["trapper: ", T4]) end,
    down("trapper: ", R2),
    morrow_obs:drain().
