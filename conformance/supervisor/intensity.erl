%% Erlang twin of intensity.mr: more than `intensity` automatic restarts
%% within the period stop every child in reverse order and the supervisor
%% exits Shutdown; a group restart is one charge; intensity 0 gives up at
%% the first automatic restart.
-module(intensity).
-export([main/0, start_worker/1, worker/2]).

-import(morrow_obs, [say/1, reason/1, result/1, children/1]).

main() -> morrow_obs:run(fun observer/0).

spec(Id) ->
    #{id => Id, start => {?MODULE, start_worker, [atom_to_list(Id)]},
      restart => permanent, shutdown => 1000, type => worker}.

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

%% last_crash crashes a child whose restart is one too many and waits for
%% the supervisor's Down.
last_crash(Sup, Id, Reason) ->
    Ref = erlang:monitor(process, Sup),
    {ok, Pid} = morrow_obs:current(Sup, Id),
    Pid ! {crash, Reason},
    receive {'DOWN', Ref, process, _, R} -> say(["supervisor down ", reason(R)]) end.

observer() ->
    say("-- OneForOne, intensity 2"),
    {ok, S1} = morrow_obs:sup_start(#{strategy => one_for_one, intensity => 2, period => 60}, [spec(a), spec(b)]),
    say(["crash a: ", result(crash(S1, a, {fault, 1}))]),
    say(["crash a: ", result(crash(S1, a, {fault, 1}))]),
    last_crash(S1, a, {fault, 1}),
    say("-- OneForAll, intensity 1: the group restart is one charge"),
    {ok, S2} = morrow_obs:sup_start(#{strategy => one_for_all, intensity => 1, period => 60}, [spec(a), spec(b), spec(c)]),
    say(["crash b: ", result(crash(S2, b, {fault, 2}))]),
    last_crash(S2, c, {fault, 2}),
    say("-- intensity 0"),
    {ok, S3} = morrow_obs:sup_start(#{strategy => rest_for_one, intensity => 0, period => 1}, [spec(a), spec(b), spec(c)]),
    last_crash(S3, b, {failure, "once"}).
