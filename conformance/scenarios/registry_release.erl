%% Erlang twin of registry_release.mr: a registered name (erlang:register/2
%% through morrow_obs:register/2) is released when its process exits,
%% whatever the reason, before its DOWN is seen; after unregister a
%% process may take a name again.
-module(registry_release).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, result/1, bool/1, option/1]).

main() -> morrow_obs:run(fun observer/0).

worker(Name, Observer) ->
    Observer ! {text, ["register ", Name, ": ", result(morrow_obs:register(Name, self()))]},
    receive {leave, Reason} -> exit(Reason) end.

start(Name, Observer) ->
    {W, M} = spawn_monitor(fun() -> worker(Name, Observer) end),
    receive {text, Text} -> say(Text) end,
    IsW = case morrow_obs:whereis(Name) of
              {some, Found} -> Found =:= W;
              none -> false
          end,
    say(["whereis ", Name, " is the worker: ", bool(IsW)]),
    {W, M}.

await_down(Name, M) ->
    receive {'DOWN', M, process, _, R} -> say([Name, " down ", reason(R)]) end,
    say(["whereis ", Name, " after the down: ", option(morrow_obs:whereis(Name))]).

leave(Name, Reason, Observer) ->
    {W, M} = start(Name, Observer),
    W ! {leave, Reason},
    await_down(Name, M).

observer() ->
    Me = self(),
    leave("a", normal, Me),
    leave("a", {failure, "boom"}, Me),
    leave("a", shutdown, Me),
    {K, KM} = start("a", Me),
    true = exit(K, kill),
    await_down("a", KM),
    {S, SM} = start("b", Me),
    true = exit(S, {shutdown, "signal"}),
    await_down("b", SM),
    {U, UM} = start("c", Me),
    say(["unregister c: ", bool(morrow_obs:unregister("c"))]),
    say(["whereis c: ", option(morrow_obs:whereis("c"))]),
    say(["register c again: ", result(morrow_obs:register("c", U))]),
    say(["unregister c again: ", bool(morrow_obs:unregister("c"))]),
    U ! {leave, normal},
    await_down("c", UM).
