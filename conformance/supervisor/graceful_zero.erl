%% Erlang twin of graceful_zero.mr: the three shutdown policies. Graceful(0)
%% ({shutdown, 0}) against a child that traps exits and holds on kills it;
%% Immediate (brutal_kill) kills at once; Graceful(1000) and Infinity let a
%% child that exits on Shutdown do so.
-module(graceful_zero).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, result/1]).

main() -> morrow_obs:run(fun observer/0).

spec(Id, Shutdown, Mode) -> sup_kit:spec(Id, #{shutdown => Shutdown, mode => Mode}).

terminate(Sup, Id) ->
    {ok, Pid} = morrow_obs:current(Sup, Id),
    Ref = erlang:monitor(process, Pid),
    sup_kit:report(["terminate ", atom_to_list(Id)], morrow_obs:terminate_child(Sup, Id)),
    receive {'DOWN', Ref, process, _, R} -> say([atom_to_list(Id), " down ", reason(R)]) end.

observer() ->
    Sup = sup_kit:start(#{strategy => one_for_one, intensity => 5, period => 60},
                        [spec(h, 0, hold), spec(k, brutal_kill, serve), spec(g, 1000, serve), spec(i, infinity, serve)]),
    terminate(Sup, h),
    terminate(Sup, k),
    terminate(Sup, g),
    terminate(Sup, i),
    sup_kit:show(Sup),
    say(["stop ", result(morrow_obs:stop(Sup))]).
