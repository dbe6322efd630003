%% Erlang twin of nested.mr: a branch is a nested supervisor. It starts its
%% own children before its parent starts the next one, restarts them by its
%% own strategy, and stops them (in reverse order) before it exits itself.
%% Workers register their names (after printing their start line, so a
%% name seen in the registry means the line is out), and their exits
%% release them.
-module(nested).
-export([main/0, start_worker/1, worker/2]).

-import(morrow_obs, [say/1, reason/1, result/1, children/1, option/1]).

main() -> morrow_obs:run(fun observer/0).

spec(Id) ->
    #{id => Id, start => {?MODULE, start_worker, [atom_to_list(Id)]},
      restart => permanent, shutdown => 1000, type => worker}.

branch(Id, Flags, Specs) ->
    #{id => Id, start => {supervisor, start_link, [morrow_obs, {Flags, Specs}]},
      restart => permanent, shutdown => infinity, type => supervisor}.

start_worker(Name) -> proc_lib:start_link(?MODULE, worker, [Name, self()]).

worker(Name, Parent) ->
    process_flag(trap_exit, true),
    say(["start:", Name]),
    ok = morrow_obs:register(Name, self()),
    proc_lib:init_ack(Parent, {ok, self()}),
    serve(Name).

serve(Name) ->
    receive
        {crash, Reason} -> exit(Reason);
        {'EXIT', _, shutdown} -> say(["stop:", Name]), exit(shutdown);
        {'EXIT', _, _} -> serve(Name)
    end.

%% renewed(Name, Old) waits until Name is registered by a process other
%% than Old.
renewed(Name, Old) ->
    case morrow_obs:whereis(Name) of
        {some, Pid} when Pid =/= Old -> ok;
        _ -> erlang:yield(), renewed(Name, Old)
    end.

observer() ->
    Inner = branch(b, #{strategy => one_for_all, intensity => 5, period => 60}, [spec(x), spec(y)]),
    {ok, Sup} = Started = morrow_obs:sup_start(#{strategy => one_for_one, intensity => 5, period => 60},
                                               [spec(a), Inner, spec(c)]),
    say(["start ", result(Started)]),
    say(["children ", children(morrow_obs:which_children(Sup))]),
    {some, X} = morrow_obs:whereis("x"),
    {some, Y} = morrow_obs:whereis("y"),
    X ! {crash, {fault, 5}},
    renewed("y", Y),
    say("x crashed; the branch restarted x and y"),
    say(["terminate b: ", result(morrow_obs:terminate_child(Sup, b))]),
    say(["whereis x: ", option(morrow_obs:whereis("x"))]),
    say(["children ", children(morrow_obs:which_children(Sup))]),
    say(["restart b: ", result(morrow_obs:restart_child(Sup, b))]),
    say(["whereis x: ", option(morrow_obs:whereis("x"))]),
    Ref = erlang:monitor(process, Sup),
    say(["stop ", result(morrow_obs:stop(Sup))]),
    receive {'DOWN', Ref, process, _, Reason} -> say(["supervisor down ", reason(Reason)]) end.
