%% Erlang twin of message_before_down.mr (see that file for what is observed).
-module(message_before_down).
-export([main/0]).

-import(morrow_obs, [next_event/0, drain/0]).

main() -> morrow_obs:run(fun observer/0).

burst(To, Count, Divisor) ->
    [To ! I || I <- lists:seq(1, Count)],
    To ! 100 div Divisor,
    ok.

observer() ->
    Own = self(),
    {_, _} = spawn_monitor(fun() -> burst(Own, 3, 0) end),
    next_event(),
    next_event(),
    next_event(),
    next_event(),
    {_, _} = spawn_monitor(fun() -> burst(Own, 2, 50) end),
    next_event(),
    next_event(),
    next_event(),
    next_event(),
    drain().
