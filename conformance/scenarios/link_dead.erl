%% Erlang twin of link_dead.mr (see that file for what is observed).
%% In a caller that does not trap exits, OTP's link/1 raises the error noproc;
%% morrow_obs:reason/1 maps the resulting {noproc, Stack} to NoProcess.
-module(link_dead).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, bool/1]).

main() -> morrow_obs:run(fun observer/0).

wait_then_exit(Reason) ->
    receive go -> exit(Reason) end.

late_linker(Target) ->
    true = link(Target),
    receive go -> ok end.

checked(What, true) -> say([What, " ok"]).

observer() ->
    Was = process_flag(trap_exit, true),
    say(["trap_exit was ", bool(Was)]),
    W = spawn(fun() -> wait_then_exit({failure, "first"}) end),
    R = morrow_obs:monitor(W),
    W ! go,
    receive {'DOWN', R, process, _, Reason} -> say(["down ", reason(Reason)]) end,
    checked("link dead process", link(W)),
    receive {'EXIT', Who, Reason1} -> say(["exit ", reason(Reason1), " from worker ", bool(Who =:= W)]) end,
    drain(),
    checked("unlink dead process", unlink(W)),
    drain(),

    {_, R2} = spawn_monitor(fun() -> late_linker(W) end),
    receive {'DOWN', R2, process, _, Reason2} -> say(["untrapped linker: down ", reason(Reason2)]) end,
    drain().

drain() ->
    receive
        {'DOWN', _, process, _, Reason} -> say(["unexpected down ", reason(Reason)]);
        {'EXIT', _, Reason} -> say(["unexpected exit ", reason(Reason)]);
        go -> say("unexpected message")
    after 0 -> say("no more events")
    end.
