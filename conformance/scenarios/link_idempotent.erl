%% Erlang twin of link_idempotent.mr (see that file for what is observed).
-module(link_idempotent).
-export([main/0]).

-import(morrow_obs, [checked/2, next_event/0, drain/0]).

main() -> morrow_obs:run(fun observer/0).

worker(Reason) -> fun() -> morrow_obs:wait_then_exit({failure, Reason}) end.

observer() ->
    morrow_obs:show_trap_exit(true),

    W1 = spawn(worker("one")),
    checked("link", link(W1)),
    checked("link again", link(W1)),
    _ = morrow_obs:monitor(W1),
    W1 ! go,
    next_event(),
    next_event(),
    drain(),

    W2 = spawn(worker("two")),
    checked("link", link(W2)),
    checked("link again", link(W2)),
    checked("unlink once", unlink(W2)),
    _ = morrow_obs:monitor(W2),
    W2 ! go,
    next_event(),
    drain(),

    W3 = spawn_link(worker("three")),
    checked("link after spawn_link", link(W3)),
    _ = morrow_obs:monitor(W3),
    W3 ! go,
    next_event(),
    next_event(),
    drain().
