%% Erlang twin of significant.mr: significant children and auto_shutdown.
%% Only a natural exit that is not restarted counts: AnySignificant stops
%% the supervisor at the first, AllSignificant when no significant child is
%% left; terminate_child never counts.
-module(significant).
-export([main/0]).

-import(morrow_obs, [say/1]).

main() -> morrow_obs:run(fun observer/0).

spec(Id, Restart, Significant) -> sup_kit:spec(Id, #{restart => Restart, significant => Significant}).

observer() ->
    say("-- AnySignificant"),
    {ok, S1} = morrow_obs:sup_start(#{strategy => one_for_one, intensity => 5, period => 60,
                                      auto_shutdown => any_significant},
                                    [spec(a, permanent, false), spec(s, transient, true), spec(b, permanent, false)]),
    sup_kit:crashed(S1, s, {fault, 1}),
    sup_kit:last_crash(S1, s, normal),
    say("-- AllSignificant"),
    {ok, S2} = morrow_obs:sup_start(#{strategy => one_for_one, intensity => 5, period => 60,
                                      auto_shutdown => all_significant},
                                    [spec(s1, temporary, true), spec(s2, transient, true), spec(w, permanent, false)]),
    sup_kit:crashed(S2, s1, normal),
    sup_kit:report("terminate s2", morrow_obs:terminate_child(S2, s2)),
    sup_kit:show(S2),
    sup_kit:report("restart s2", morrow_obs:restart_child(S2, s2)),
    sup_kit:last_crash(S2, s2, {shutdown, "done"}).
