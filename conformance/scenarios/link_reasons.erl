%% Erlang twin of link_reasons.mr (see that file for what is observed).
-module(link_reasons).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, bool/1]).

main() -> morrow_obs:run(fun observer/0).

exiter(Reason) ->
    exit(Reason).

partner(Reason) ->
    C = spawn_link(fun() -> morrow_obs:wait_then_exit(Reason) end),
    R = morrow_obs:monitor(C),
    C ! go,
    receive {'DOWN', R, process, _, _} -> exit({failure, "survived"}) end.

reasons() ->
    [
        normal,
        shutdown,
        {shutdown, "detail"},
        {fault, 7},
        {failure, "linked"},
        kill,
        killed,
        noproc
    ].

observer() ->
    morrow_obs:show_trap_exit(true),
    lists:foreach(
        fun(Reason) ->
            C = spawn_link(fun() -> exiter(Reason) end),
            receive
                {'EXIT', Who, Got} -> say(["trapped: exit ", reason(Got), " from child ", bool(Who =:= C)])
            end
        end,
        reasons()),
    _ = process_flag(trap_exit, false),
    lists:foreach(
        fun(Reason) ->
            {_, R} = spawn_monitor(fun() -> partner(Reason) end),
            morrow_obs:down("untrapped: ", R)
        end,
        reasons()),
    morrow_obs:drain().
