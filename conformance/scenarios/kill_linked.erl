%% Erlang twin of kill_linked.mr (see that file for what is observed).
%% Process.exit(R) is exit(R), an exception, so try ... after runs like a
%% Morrow defer.
-module(kill_linked).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, bool/1, down/2]).

main() -> morrow_obs:run(fun observer/0).

go_then_exit(Reason) ->
    try
        receive go -> exit(Reason) end
    after
        say("child cleanup ran")
    end.

middle(Reason) ->
    C = spawn_link(fun() -> go_then_exit(Reason) end),
    C ! go,
    receive go -> ok end.

observer() ->
    morrow_obs:show_trap_exit(true),

    C1 = spawn_link(fun() -> go_then_exit(kill) end),
    C1 ! go,
    receive
        {'EXIT', Who1, Reason1} ->
            say(["linked child: exit ", reason(Reason1), " from child ", bool(Who1 =:= C1)])
    end,
    say("observer still running"),

    {_, R2} = spawn_monitor(fun() -> middle(kill) end),
    down("untrapped partner: ", R2),

    C3 = spawn_link(fun() -> go_then_exit(killed) end),
    C3 ! go,
    receive {'EXIT', _, Reason3} -> say(["linked child: exit ", reason(Reason3)]) end,

    {_, R4} = spawn_monitor(fun() -> middle(killed) end),
    down("untrapped partner: ", R4),
    morrow_obs:drain().
