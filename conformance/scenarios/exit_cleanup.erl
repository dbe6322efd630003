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
    morrow_obs:down("nested: ", R1),
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
            morrow_obs:down("explicit: ", R)
        end,
        Reasons),
    {_, R2} = spawn_monitor(fun() -> divider(0) end),
    morrow_obs:down("checked fault: ", R2),
    morrow_obs:drain().
