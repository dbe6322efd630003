%% Erlang twin of intensity.mr: more than `intensity` automatic restarts
%% within the period stop every child in reverse order and the supervisor
%% exits Shutdown; a group restart is one charge; intensity 0 gives up at
%% the first automatic restart.
-module(intensity).
-export([main/0]).

-import(morrow_obs, [say/1]).
-import(sup_kit, [spec/1]).

main() -> morrow_obs:run(fun observer/0).

observer() ->
    say("-- OneForOne, intensity 2"),
    {ok, S1} = morrow_obs:sup_start(#{strategy => one_for_one, intensity => 2, period => 60}, [spec(a), spec(b)]),
    sup_kit:crashed(S1, a, {fault, 1}),
    sup_kit:crashed(S1, a, {fault, 1}),
    sup_kit:last_crash(S1, a, {fault, 1}),
    say("-- OneForAll, intensity 1: the group restart is one charge"),
    {ok, S2} = morrow_obs:sup_start(#{strategy => one_for_all, intensity => 1, period => 60}, [spec(a), spec(b), spec(c)]),
    sup_kit:crashed(S2, b, {fault, 2}),
    sup_kit:last_crash(S2, c, {fault, 2}),
    say("-- intensity 0"),
    {ok, S3} = morrow_obs:sup_start(#{strategy => rest_for_one, intensity => 0, period => 1}, [spec(a), spec(b), spec(c)]),
    sup_kit:last_crash(S3, b, {failure, "once"}).
