%% Erlang twin of nested_order.mr: a branch (nested supervisor) between two
%% workers. Its children start before its parent starts the next child;
%% terminate_child on it stops its children in reverse order first;
%% restart_child starts them again; stop stops everything in reverse
%% order, the branch's children before the workers declared before it.
-module(nested_order).
-export([main/0]).

-import(sup_kit, [spec/1]).

main() -> morrow_obs:run(fun observer/0).

observer() ->
    Inner = sup_kit:branch(b, #{strategy => one_for_all, intensity => 5, period => 60}, [spec(x), spec(y)]),
    Sup = sup_kit:start(#{strategy => one_for_one, intensity => 5, period => 60}, [spec(a), Inner, spec(c)]),
    sup_kit:show(Sup),
    sup_kit:report("terminate b", morrow_obs:terminate_child(Sup, b)),
    sup_kit:show(Sup),
    sup_kit:report("restart b", morrow_obs:restart_child(Sup, b)),
    sup_kit:show(Sup),
    sup_kit:stop(Sup).
