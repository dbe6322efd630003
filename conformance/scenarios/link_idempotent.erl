%% Erlang twin of link_idempotent.mr (see that file for what is observed).
-module(link_idempotent).
-export([main/0]).

-import(morrow_obs, [checked/2]).

main() -> morrow_obs:run(fun observer/0).

worker(Reason) -> fun() -> morrow_obs:wait_then_exit({failure, Reason}) end.

observer() ->
    morrow_obs:show_trap_exit(true),

    W1 = spawn(worker("one")),
    checked("link", link(W1)),
    checked("link again", link(W1)),
    morrow_obs:release(W1, 2),

    W2 = spawn(worker("two")),
    checked("link", link(W2)),
    checked("link again", link(W2)),
    checked("unlink once", unlink(W2)),
    morrow_obs:release(W2, 1),

    W3 = spawn_link(worker("three")),
    checked("link after spawn_link", link(W3)),
    morrow_obs:release(W3, 2).
