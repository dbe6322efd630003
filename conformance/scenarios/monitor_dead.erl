%% Erlang twin of monitor_dead.mr (see that file for what is observed).
-module(monitor_dead).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, bool/1, down/2]).

main() -> morrow_obs:run(fun observer/0).

observer() ->
    W = spawn(fun morrow_obs:idle/0),
    R1 = morrow_obs:monitor(W),
    W ! go,
    down("", R1),
    R2 = morrow_obs:monitor(W),
    say(["monitor dead ok, fresh ", bool(R2 =/= R1)]),
    receive
        {'DOWN', R2, process, Who, Reason2} ->
            say(["down ", reason(Reason2), " from worker ", bool(Who =:= W)])
    end,
    C = spawn(fun() -> morrow_obs:wait_then_exit({fault, 7}) end),
    R3 = morrow_obs:monitor(C),
    C ! go,
    down("", R3),
    R4 = morrow_obs:monitor(C),
    R5 = morrow_obs:monitor(C),
    say(["two late monitors distinct ", bool(R4 =/= R5)]),
    down("", R5),
    down("", R4),
    morrow_obs:drain().
