%% Erlang twin of start_link_parent.mr: a supervisor started with
%% start_link stops its children and exits with its parent's reason when
%% the parent exits, Normal included.
-module(start_link_parent).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1]).
-import(sup_kit, [spec/1]).

main() -> morrow_obs:run(fun observer/0).

%% parent(Observer, Reason) starts a linked supervisor, hands its pid to
%% the observer, and exits with Reason when told to.
parent(Observer, Reason) ->
    {ok, Sup} = supervisor:start_link(morrow_obs, {#{strategy => one_for_one, intensity => 5, period => 60},
                                                    [spec(a), spec(b)]}),
    Observer ! {sup, Sup},
    receive go -> exit(Reason) end.

run(Reason) ->
    Self = self(),
    Parent = spawn(fun() -> parent(Self, Reason) end),
    receive {sup, Sup} -> ok end,
    Ref = erlang:monitor(process, Sup),
    say(["parent exits ", reason(Reason)]),
    Parent ! go,
    receive {'DOWN', Ref, process, _, R} -> say(["supervisor down ", reason(R)]) end.

observer() ->
    run(normal),
    run({fault, 7}),
    run({shutdown, "bye"}).
