%% Erlang twin of kill_linked.mr (see that file for what is observed).
%% Process.exit(R) is exit(R), an exception, so try ... after runs like a
%% Morrow defer.
-module(kill_linked).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, bool/1]).

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
    Was = process_flag(trap_exit, true),
    say(["trap_exit was ", bool(Was)]),

    C1 = spawn_link(fun() -> go_then_exit(kill) end),
    C1 ! go,
    receive
        {'EXIT', Who1, Reason1} ->
            say(["linked child: exit ", reason(Reason1), " from child ", bool(Who1 =:= C1)])
    end,
    say("observer still running"),

    {_, R2} = spawn_monitor(fun() -> middle(kill) end),
    receive {'DOWN', R2, process, _, Reason2} -> say(["untrapped partner: down ", reason(Reason2)]) end,

    C3 = spawn_link(fun() -> go_then_exit(killed) end),
    C3 ! go,
    receive {'EXIT', _, Reason3} -> say(["linked child: exit ", reason(Reason3)]) end,

    {_, R4} = spawn_monitor(fun() -> middle(killed) end),
    receive {'DOWN', R4, process, _, Reason4} -> say(["untrapped partner: down ", reason(Reason4)]) end,

    receive
        {'DOWN', _, process, _, Reason} -> say(["unexpected down ", reason(Reason)]);
        {'EXIT', _, Reason} -> say(["unexpected exit ", reason(Reason)]);
        go -> say("unexpected message")
    after 0 -> say("no more events")
    end.
