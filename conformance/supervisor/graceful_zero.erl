%% Erlang twin of graceful_zero.mr: the three shutdown policies. Graceful(0)
%% ({shutdown, 0}) against a child that traps exits and holds on kills it;
%% Immediate (brutal_kill) kills at once; Graceful(1000) and Infinity let a
%% child that exits on Shutdown do so.
-module(graceful_zero).
-export([main/0, start_worker/2, worker/3]).

-import(morrow_obs, [say/1, reason/1, result/1, children/1]).

main() -> morrow_obs:run(fun observer/0).

spec(Id, Shutdown, Mode) ->
    #{id => Id, start => {?MODULE, start_worker, [atom_to_list(Id), Mode]},
      restart => permanent, shutdown => Shutdown, type => worker}.

start_worker(Name, Mode) -> proc_lib:start_link(?MODULE, worker, [Name, Mode, self()]).

worker(Name, Mode, Parent) ->
    process_flag(trap_exit, true),
    say(["start:", Name]),
    proc_lib:init_ack(Parent, {ok, self()}),
    case Mode of
        hold -> hold();
        serve -> serve(Name)
    end.

hold() ->
    receive {'EXIT', _, _} -> hold() end.

serve(Name) ->
    receive
        {'EXIT', _, shutdown} -> say(["stop:", Name]), exit(shutdown);
        {'EXIT', _, _} -> serve(Name)
    end.

terminate(Sup, Id) ->
    {ok, Pid} = morrow_obs:current(Sup, Id),
    Ref = erlang:monitor(process, Pid),
    say(["terminate ", atom_to_list(Id), ": ", result(morrow_obs:terminate_child(Sup, Id))]),
    receive {'DOWN', Ref, process, _, R} -> say([atom_to_list(Id), " down ", reason(R)]) end.

observer() ->
    Flags = #{strategy => one_for_one, intensity => 5, period => 60},
    {ok, Sup} = Started = morrow_obs:sup_start(Flags, [spec(h, 0, hold), spec(k, brutal_kill, serve),
                                                       spec(g, 1000, serve), spec(i, infinity, serve)]),
    say(["start ", result(Started)]),
    terminate(Sup, h),
    terminate(Sup, k),
    terminate(Sup, g),
    terminate(Sup, i),
    say(["children ", children(morrow_obs:which_children(Sup))]),
    say(["stop ", result(morrow_obs:stop(Sup))]).
