%% Erlang twin of selective_receive.mr (see that file for what is observed).
%% A Morrow plain receive is an Erlang receive that matches user messages
%% only (integers here), so 'EXIT' and 'DOWN' tuples stay queued.
-module(selective_receive).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, bool/1]).

main() -> morrow_obs:run(fun observer/0).

announce(To) ->
    receive go -> To ! 1 end,
    ok.

observer() ->
    Own = self(),
    morrow_obs:show_trap_exit(true),
    W = spawn_link(fun() -> announce(Own) end),
    R = morrow_obs:monitor(W),
    W ! go,
    receive
        {'DOWN', R, process, Who, Reason} ->
            say(["down ", reason(Reason), " from worker ", bool(Who =:= W)])
    end,
    Own ! 2,
    receive N1 when is_integer(N1) -> say(["message ", integer_to_list(N1)]) end,
    receive N2 when is_integer(N2) -> say(["message ", integer_to_list(N2)]) end,
    receive
        {'EXIT', Who2, Reason2} -> say(["exit ", reason(Reason2), " from worker ", bool(Who2 =:= W)])
    after 0 -> say("no exit queued")
    end,
    morrow_obs:drain(),
    morrow_obs:show_trap_exit(false).
