%% Erlang twin of rest_for_one.mr: RestForOne stops the children after the
%% one that exited in reverse order, then starts it and them in order.
-module(rest_for_one).
-export([main/0]).

-import(sup_kit, [spec/1]).

main() -> morrow_obs:run(fun observer/0).

observer() ->
    Sup = sup_kit:start(#{strategy => rest_for_one, intensity => 5, period => 60},
                        [spec(a), spec(b), spec(c), spec(d)]),
    sup_kit:crashed(Sup, b, {fault, 3}),
    sup_kit:crashed(Sup, d, {fault, 3}),
    sup_kit:crashed(Sup, a, {failure, "again"}),
    sup_kit:show(Sup),
    sup_kit:stop(Sup).
