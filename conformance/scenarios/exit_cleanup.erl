%% Erlang twin of exit_cleanup.mr (see that file for what is observed).
%% Process.exit(R) is exit(R), an exception, and a Morrow defer is
%% try ... after, so cleanup runs innermost first as in Morrow.
-module(exit_cleanup).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1]).

main() -> morrow_obs:run(fun observer/0).

chosen(Reason) ->
    say("reason evaluated"),
    Reason.

inner(Reason, Stop) ->
    try
        say("inner before exit"),
        case Stop of
            true -> exit(chosen(Reason));
            false -> ok
        end,
        say("inner after exit")
    after
        say("inner cleanup")
    end.

outer(Reason) ->
    try
        try
            inner(Reason, true),
            say("outer continues")
        after
            say("outer cleanup registered second")
        end
    after
        say("outer cleanup registered first")
    end.

exiter(Reason) ->
    try
        exit(Reason)
    after
        say(["cleanup before ", reason(Reason)])
    end.

divider(Divisor) ->
    try
        say(["quotient ", integer_to_list(10 div Divisor)])
    after
        say("cleanup after fault")
    end.

observer() ->
    {_, R1} = spawn_monitor(fun() -> outer(shutdown) end),
    receive {'DOWN', R1, process, _, Reason1} -> say(["nested: down ", reason(Reason1)]) end,
    Reasons = [
        normal,
        shutdown,
        {shutdown, "detail"},
        {fault, 7},
        {fault, -9223372036854775808},
        {fault, 9223372036854775807},
        {failure, "explicit"},
        kill,
        killed,
        noproc
    ],
    lists:foreach(
        fun(Reason) ->
            {_, R} = spawn_monitor(fun() -> exiter(Reason) end),
            receive {'DOWN', R, process, _, Got} -> say(["explicit: down ", reason(Got)]) end
        end,
        Reasons),
    {_, R2} = spawn_monitor(fun() -> divider(0) end),
    receive {'DOWN', R2, process, _, Reason2} -> say(["checked fault: down ", reason(Reason2)]) end,
    receive
        {'DOWN', _, process, _, Other} -> say(["unexpected down ", reason(Other)]);
        {'EXIT', _, Other} -> say(["unexpected exit ", reason(Other)])
    after 0 -> say("no more events")
    end.
