%% Erlang twin of restart_types.mr: restart type x exit reason. Permanent
%% always restarts; Transient restarts only after an abnormal reason
%% (normal, shutdown and {shutdown, _} are normal); Temporary never
%% restarts and its spec is removed.
-module(restart_types).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, result/1]).

main() -> morrow_obs:run(fun observer/0).

reasons() -> [{normal, normal}, {shutdown, shutdown}, {detail, {shutdown, "bye"}}, {fault, {fault, 3}}].

types() -> [{p, permanent}, {t, transient}, {x, temporary}].

id(T, R) -> list_to_atom(atom_to_list(T) ++ "_" ++ atom_to_list(R)).

observer() ->
    Specs = [sup_kit:spec(id(T, R), #{restart => Restart}) || {T, Restart} <- types(), {R, _} <- reasons()],
    Sup = sup_kit:start(#{strategy => one_for_one, intensity => 10, period => 60}, Specs),
    [say([atom_to_list(id(T, R)), " exits ", reason(Reason), ": current ",
          result(sup_kit:crash(Sup, id(T, R), Reason))])
     || {T, _} <- types(), {R, Reason} <- reasons()],
    sup_kit:show(Sup),
    sup_kit:stop(Sup).
