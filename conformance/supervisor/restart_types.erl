%% Erlang twin of restart_types.mr: restart type x exit reason. Permanent
%% always restarts; Transient restarts only after an abnormal reason
%% (normal, shutdown and {shutdown, _} are normal); Temporary never
%% restarts and its spec is removed.
-module(restart_types).
-export([main/0, start_worker/1, worker/2]).

-import(morrow_obs, [say/1, reason/1, result/1, children/1]).

main() -> morrow_obs:run(fun observer/0).

spec(Id, Restart) ->
    #{id => Id, start => {?MODULE, start_worker, [atom_to_list(Id)]},
      restart => Restart, shutdown => 1000, type => worker}.

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

reasons() -> [{normal, normal}, {shutdown, shutdown}, {detail, {shutdown, "bye"}}, {fault, {fault, 3}}].

types() -> [{p, permanent}, {t, transient}, {x, temporary}].

id(T, R) -> list_to_atom(atom_to_list(T) ++ "_" ++ atom_to_list(R)).

observer() ->
    Flags = #{strategy => one_for_one, intensity => 10, period => 60},
    Specs = [spec(id(T, R), Restart) || {T, Restart} <- types(), {R, _} <- reasons()],
    {ok, Sup} = Started = morrow_obs:sup_start(Flags, Specs),
    say(["start ", result(Started)]),
    [say([atom_to_list(id(T, R)), " exits ", reason(Reason), ": current ",
          result(crash(Sup, id(T, R), Reason))])
     || {T, _} <- types(), {R, Reason} <- reasons()],
    say(["children ", children(morrow_obs:which_children(Sup))]),
    Ref = erlang:monitor(process, Sup),
    say(["stop ", result(morrow_obs:stop(Sup))]),
    receive {'DOWN', Ref, process, _, Reason} -> say(["supervisor down ", reason(Reason)]) end.
