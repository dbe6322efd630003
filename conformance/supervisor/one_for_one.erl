%% Erlang twin of one_for_one.mr: OneForOne restarts only the child that
%% exited; stop stops every child in reverse order and exits Normal.
-module(one_for_one).
-export([main/0]).

-import(sup_kit, [spec/1]).

main() -> morrow_obs:run(fun observer/0).

observer() ->
    Sup = sup_kit:start(#{strategy => one_for_one, intensity => 5, period => 60}, [spec(a), spec(b), spec(c)]),
    sup_kit:crashed(Sup, b, {fault, 3}),
    sup_kit:crashed(Sup, c, {failure, "x"}),
    sup_kit:show(Sup),
    sup_kit:stop(Sup).
