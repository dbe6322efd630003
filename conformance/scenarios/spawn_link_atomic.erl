%% Erlang twin of spawn_link_atomic.mr (see that file for what is observed).
-module(spawn_link_atomic).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, bool/1]).

main() -> morrow_obs:run(fun observer/0).

middle() ->
    _ = spawn_link(fun() -> exit({failure, "early"}) end),
    receive go -> ok end.

observer() ->
    morrow_obs:show_trap_exit(true),
    C1 = spawn_link(fun() -> exit({failure, "early"}) end),
    receive {'EXIT', Who1, Reason1} -> say(["exit ", reason(Reason1), " from child ", bool(Who1 =:= C1)]) end,
    C2 = spawn_link(fun() -> ok end),
    receive {'EXIT', Who2, Reason2} -> say(["exit ", reason(Reason2), " from child ", bool(Who2 =:= C2)]) end,
    {C3, R3} = spawn_monitor(fun() -> exit(shutdown) end),
    receive
        {'DOWN', R3, process, Who3, Reason3} ->
            say(["down ", reason(Reason3), " from child ", bool(Who3 =:= C3)])
    end,
    {_, R4} = spawn_monitor(fun middle/0),
    morrow_obs:down("untrapped parent: ", R4),
    morrow_obs:drain().
