%% Erlang twin of nested_order.mr: a branch (nested supervisor) between two
%% workers. Its children start before its parent starts the next child;
%% terminate_child on it stops its children in reverse order first;
%% restart_child starts them again; stop stops everything in reverse
%% order, the branch's children before the workers declared before it.
-module(nested_order).
-export([main/0, start_worker/1, worker/2]).

-import(morrow_obs, [say/1, reason/1, result/1, children/1]).

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
    proc_lib:init_ack(Parent, {ok, self()}),
    serve(Name).

serve(Name) ->
    receive
        {'EXIT', _, shutdown} -> say(["stop:", Name]), exit(shutdown);
        {'EXIT', _, _} -> serve(Name)
    end.

observer() ->
    Inner = branch(b, #{strategy => one_for_all, intensity => 5, period => 60}, [spec(x), spec(y)]),
    {ok, Sup} = Started = morrow_obs:sup_start(#{strategy => one_for_one, intensity => 5, period => 60},
                                               [spec(a), Inner, spec(c)]),
    say(["start ", result(Started)]),
    say(["children ", children(morrow_obs:which_children(Sup))]),
    say(["terminate b: ", result(morrow_obs:terminate_child(Sup, b))]),
    say(["children ", children(morrow_obs:which_children(Sup))]),
    say(["restart b: ", result(morrow_obs:restart_child(Sup, b))]),
    say(["children ", children(morrow_obs:which_children(Sup))]),
    Ref = erlang:monitor(process, Sup),
    say(["stop ", result(morrow_obs:stop(Sup))]),
    receive {'DOWN', Ref, process, _, Reason} -> say(["supervisor down ", reason(Reason)]) end.
