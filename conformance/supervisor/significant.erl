%% Erlang twin of significant.mr: significant children and auto_shutdown.
%% Only a natural exit that is not restarted counts: AnySignificant stops
%% the supervisor at the first, AllSignificant when no significant child is
%% left; terminate_child never counts.
-module(significant).
-export([main/0, start_worker/1, worker/2]).

-import(morrow_obs, [say/1, reason/1, result/1, children/1]).

main() -> morrow_obs:run(fun observer/0).

spec(Id, Restart, Significant) ->
    #{id => Id, start => {?MODULE, start_worker, [atom_to_list(Id)]},
      restart => Restart, shutdown => 1000, type => worker, significant => Significant}.

start_worker(Name) -> proc_lib:start_link(?MODULE, worker, [Name, self()]).

worker(Name, Parent) ->
    process_flag(trap_exit, true),
    say(["start:", Name]),
    proc_lib:init_ack(Parent, {ok, self()}),
    serve(Name).

serve(Name) ->
    receive
        {crash, Reason} -> exit(Reason);
        {'EXIT', _, shutdown} -> say(["stop:", Name]), exit(shutdown);
        {'EXIT', _, _} -> serve(Name)
    end.

crash(Sup, Id, Reason) ->
    {ok, Pid} = morrow_obs:current(Sup, Id),
    Pid ! {crash, Reason},
    morrow_obs:settle(Sup, Id, Pid).

last_crash(Sup, Id, Reason) ->
    Ref = erlang:monitor(process, Sup),
    {ok, Pid} = morrow_obs:current(Sup, Id),
    Pid ! {crash, Reason},
    receive {'DOWN', Ref, process, _, R} -> say(["supervisor down ", reason(R)]) end.

observer() ->
    say("-- AnySignificant"),
    {ok, S1} = morrow_obs:sup_start(#{strategy => one_for_one, intensity => 5, period => 60,
                                      auto_shutdown => any_significant},
                                    [spec(a, permanent, false), spec(s, transient, true), spec(b, permanent, false)]),
    say(["crash s: ", result(crash(S1, s, {fault, 1}))]),
    last_crash(S1, s, normal),
    say("-- AllSignificant"),
    {ok, S2} = morrow_obs:sup_start(#{strategy => one_for_one, intensity => 5, period => 60,
                                      auto_shutdown => all_significant},
                                    [spec(s1, temporary, true), spec(s2, transient, true), spec(w, permanent, false)]),
    say(["crash s1: ", result(crash(S2, s1, normal))]),
    say(["terminate s2: ", result(morrow_obs:terminate_child(S2, s2))]),
    say(["children ", children(morrow_obs:which_children(S2))]),
    say(["restart s2: ", result(morrow_obs:restart_child(S2, s2))]),
    last_crash(S2, s2, {shutdown, "done"}).
