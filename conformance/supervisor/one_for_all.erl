%% Erlang twin of one_for_all.mr: OneForAll stops the other children in
%% reverse order and starts all of them again in order, a Stopped sibling
%% included (as OTP does).
-module(one_for_all).
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

observer() ->
    Flags = #{strategy => one_for_all, intensity => 5, period => 60},
    {ok, Sup} = Started = morrow_obs:sup_start(Flags, [spec(a), spec(b), spec(c)]),
    say(["start ", result(Started)]),
    say(["crash b: ", result(crash(Sup, b, {fault, 3}))]),
    say(["children ", children(morrow_obs:which_children(Sup))]),
    say(["terminate c: ", result(morrow_obs:terminate_child(Sup, c))]),
    say(["children ", children(morrow_obs:which_children(Sup))]),
    say(["crash a: ", result(crash(Sup, a, {fault, 1}))]),
    say(["children ", children(morrow_obs:which_children(Sup))]),
    Ref = erlang:monitor(process, Sup),
    say(["stop ", result(morrow_obs:stop(Sup))]),
    receive {'DOWN', Ref, process, _, Reason} -> say(["supervisor down ", reason(Reason)]) end.
