%% Erlang twin of kill_direct.mr (see that file for what is observed).
%% A Morrow defer is try ... after here; OTP never runs it for a process
%% terminated by an exit signal, and Morrow skips it for a direct Kill.
-module(kill_direct).
-export([main/0]).

-import(morrow_obs, [say/1, bool/1, checked/2, down/2]).

main() -> morrow_obs:run(fun observer/0).

victim(To, Trap) ->
    Was = process_flag(trap_exit, Trap),
    try
        To ! {text, ["trap_exit was ", bool(Was), ", ready"]},
        receive go -> ok end
    after
        say("victim cleanup ran")
    end.

bystander(To) ->
    To ! {text, "ready"},
    receive go -> ok end.

self_killer() ->
    process_flag(trap_exit, true),
    true = exit(self(), kill),
    receive go -> ok end.

observer() ->
    Own = self(),
    {V1, R1} = spawn_monitor(fun() -> victim(Own, true) end),
    receive {text, T1} -> say(["trapping victim: ", T1]) end,
    checked("direct kill", exit(V1, kill)),
    down("trapping victim: ", R1),

    {V2, R2} = spawn_monitor(fun() -> victim(Own, false) end),
    receive {text, T2} -> say(["plain victim: ", T2]) end,
    checked("direct kill", exit(V2, kill)),
    down("plain victim: ", R2),

    {_, R3} = spawn_monitor(fun self_killer/0),
    down("self killer: ", R3),

    {V4, R4} = spawn_monitor(fun() -> bystander(Own) end),
    receive {text, T4} -> say(["bystander: ", T4]) end,
    checked("direct failure signal", exit(V4, {failure, "stop"})),
    down("bystander: ", R4),
    morrow_obs:drain().
