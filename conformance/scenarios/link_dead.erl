%% Erlang twin of link_dead.mr (see that file for what is observed).
%% In a caller that does not trap exits, OTP's link/1 raises the error noproc;
%% morrow_obs:reason/1 maps the resulting {noproc, Stack} to NoProcess.
-module(link_dead).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, bool/1, checked/2, drain/0]).

main() -> morrow_obs:run(fun observer/0).

late_linker(Target) ->
    true = link(Target),
    receive go -> ok end.

observer() ->
    morrow_obs:show_trap_exit(true),
    W = spawn(fun() -> morrow_obs:wait_then_exit({failure, "first"}) end),
    R = morrow_obs:monitor(W),
    W ! go,
    morrow_obs:down("", R),
    checked("link dead process", link(W)),
    receive {'EXIT', Who, Reason1} -> say(["exit ", reason(Reason1), " from worker ", bool(Who =:= W)]) end,
    drain(),
    checked("unlink dead process", unlink(W)),
    drain(),

    {_, R2} = spawn_monitor(fun() -> late_linker(W) end),
    morrow_obs:down("untrapped linker: ", R2),
    drain().
