%% Erlang twin of nested.mr: a branch is a nested supervisor. It starts its
%% own children before its parent starts the next one, restarts them by its
%% own strategy, and stops them (in reverse order) before it exits itself.
%% Workers register their names (after printing their start line, so a
%% name seen in the registry means the line is out), and their exits
%% release them.
-module(nested).
-export([main/0]).

-import(morrow_obs, [say/1, option/1]).

main() -> morrow_obs:run(fun observer/0).

spec(Id) -> sup_kit:spec(Id, #{mode => registered}).

%% renewed(Name, Old) waits until Name is registered by a process other
%% than Old.
renewed(Name, Old) ->
    case morrow_obs:whereis(Name) of
        {some, Pid} when Pid =/= Old -> ok;
        _ -> erlang:yield(), renewed(Name, Old)
    end.

observer() ->
    Inner = sup_kit:branch(b, #{strategy => one_for_all, intensity => 5, period => 60}, [spec(x), spec(y)]),
    Sup = sup_kit:start(#{strategy => one_for_one, intensity => 5, period => 60}, [spec(a), Inner, spec(c)]),
    sup_kit:show(Sup),
    {some, X} = morrow_obs:whereis("x"),
    {some, Y} = morrow_obs:whereis("y"),
    X ! {crash, {fault, 5}},
    renewed("y", Y),
    say("x crashed; the branch restarted x and y"),
    sup_kit:report("terminate b", morrow_obs:terminate_child(Sup, b)),
    say(["whereis x: ", option(morrow_obs:whereis("x"))]),
    sup_kit:show(Sup),
    sup_kit:report("restart b", morrow_obs:restart_child(Sup, b)),
    say(["whereis x: ", option(morrow_obs:whereis("x"))]),
    sup_kit:stop(Sup).
