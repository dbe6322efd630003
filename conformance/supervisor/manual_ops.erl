%% Erlang twin of manual_ops.mr: terminate_child, restart_child,
%% delete_child, start_child and current, with their errors.
-module(manual_ops).
-export([main/0, start_worker/2, worker/3]).

-import(morrow_obs, [say/1, reason/1, result/1, children/1]).

main() -> morrow_obs:run(fun observer/0).

spec(Id, Restart, Mode) ->
    #{id => Id, start => {?MODULE, start_worker, [atom_to_list(Id), Mode]},
      restart => Restart, shutdown => 1000, type => worker}.

start_worker(Name, Mode) -> proc_lib:start_link(?MODULE, worker, [Name, Mode, self()]).

worker(Name, Mode, Parent) ->
    process_flag(trap_exit, true),
    say(["start:", Name]),
    case Mode of
        ok -> proc_lib:init_ack(Parent, {ok, self()}), serve(Name);
        {fail, Reason} -> proc_lib:init_ack(Parent, {error, Reason}), exit(Reason)
    end.

serve(Name) ->
    receive
        {'EXIT', _, shutdown} -> say(["stop:", Name]), exit(shutdown);
        {'EXIT', _, _} -> serve(Name)
    end.

show(Sup) -> say(["children ", children(morrow_obs:which_children(Sup))]).

observer() ->
    Flags = #{strategy => one_for_one, intensity => 5, period => 60},
    {ok, Sup} = Started = morrow_obs:sup_start(Flags, [spec(a, permanent, ok), spec(t, temporary, ok),
                                                       spec(c, transient, ok)]),
    say(["start ", result(Started)]),
    say(["terminate zz: ", result(morrow_obs:terminate_child(Sup, zz))]),
    say(["terminate a: ", result(morrow_obs:terminate_child(Sup, a))]),
    say(["terminate a again: ", result(morrow_obs:terminate_child(Sup, a))]),
    say(["current a: ", result(morrow_obs:current(Sup, a))]),
    show(Sup),
    say(["restart c: ", result(morrow_obs:restart_child(Sup, c))]),
    say(["delete c: ", result(morrow_obs:delete_child(Sup, c))]),
    say(["restart a: ", result(morrow_obs:restart_child(Sup, a))]),
    say(["current a: ", result(morrow_obs:current(Sup, a))]),
    say(["terminate a: ", result(morrow_obs:terminate_child(Sup, a))]),
    say(["delete a: ", result(morrow_obs:delete_child(Sup, a))]),
    say(["delete a again: ", result(morrow_obs:delete_child(Sup, a))]),
    say(["restart a: ", result(morrow_obs:restart_child(Sup, a))]),
    say(["current a: ", result(morrow_obs:current(Sup, a))]),
    say(["terminate t: ", result(morrow_obs:terminate_child(Sup, t))]),
    show(Sup),
    say(["start_child d: ", result(morrow_obs:start_child(Sup, spec(d, permanent, ok)))]),
    say(["start_child d again: ", result(morrow_obs:start_child(Sup, spec(d, permanent, ok)))]),
    say(["terminate d: ", result(morrow_obs:terminate_child(Sup, d))]),
    say(["start_child d stopped: ", result(morrow_obs:start_child(Sup, spec(d, permanent, ok)))]),
    say(["start_child f: ", result(morrow_obs:start_child(Sup, spec(f, permanent, {fail, {failure, "nope"}})))]),
    say(["current f: ", result(morrow_obs:current(Sup, f))]),
    say(["start_child a: ", result(morrow_obs:start_child(Sup, spec(a, transient, ok)))]),
    show(Sup),
    Ref = erlang:monitor(process, Sup),
    say(["stop ", result(morrow_obs:stop(Sup))]),
    receive {'DOWN', Ref, process, _, Reason} -> say(["supervisor down ", reason(Reason)]) end.
