%% Erlang twin of registry.mr: register, whereis and unregister; one name
%% per process, taken names and dead processes are refused, and a name is
%% released when its process exits (before its Down is seen).
-module(registry).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, result/1, bool/1, option/1]).

main() -> morrow_obs:run(fun observer/0).

idle() ->
    receive stop -> ok end.

observer() ->
    P = spawn(fun idle/0),
    Q = spawn(fun idle/0),
    say(["register svc p: ", result(morrow_obs:register("svc", P))]),
    say(["whereis svc: ", option(morrow_obs:whereis("svc"))]),
    say(["whereis other: ", option(morrow_obs:whereis("other"))]),
    say(["register svc q: ", result(morrow_obs:register("svc", Q))]),
    say(["register second p: ", result(morrow_obs:register("second", P))]),
    say(["unregister svc: ", bool(morrow_obs:unregister("svc"))]),
    say(["unregister svc again: ", bool(morrow_obs:unregister("svc"))]),
    say(["whereis svc: ", option(morrow_obs:whereis("svc"))]),
    say(["register svc p again: ", result(morrow_obs:register("svc", P))]),
    Ref = erlang:monitor(process, P),
    P ! stop,
    receive {'DOWN', Ref, process, _, R} -> say(["p down ", reason(R)]) end,
    say(["whereis svc after exit: ", option(morrow_obs:whereis("svc"))]),
    say(["register svc dead p: ", result(morrow_obs:register("svc", P))]),
    say(["register svc q: ", result(morrow_obs:register("svc", Q))]),
    {some, Q2} = morrow_obs:whereis("svc"),
    say(["whereis svc is q: ", bool(Q2 =:= Q)]),
    Q ! stop.
