%% Erlang twin of one_for_all.mr: OneForAll stops the other children in
%% reverse order and starts all of them again in order, a Stopped sibling
%% included (as OTP does).
-module(one_for_all).
-export([main/0]).

-import(sup_kit, [spec/1]).

main() -> morrow_obs:run(fun observer/0).

observer() ->
    Sup = sup_kit:start(#{strategy => one_for_all, intensity => 5, period => 60}, [spec(a), spec(b), spec(c)]),
    sup_kit:crashed(Sup, b, {fault, 3}),
    sup_kit:show(Sup),
    sup_kit:report("terminate c", morrow_obs:terminate_child(Sup, c)),
    sup_kit:show(Sup),
    sup_kit:crashed(Sup, a, {fault, 1}),
    sup_kit:show(Sup),
    sup_kit:stop(Sup).
