%% Erlang twin of demonitor_consumed.mr (see that file for what is observed).
-module(demonitor_consumed).
-export([main/0]).

main() -> morrow_obs:run(fun observer/0).

observer() ->
    W = spawn(fun morrow_obs:idle/0),
    Refs = [morrow_obs:monitor(W) || _ <- morrow_obs:demonitor_options()],
    W ! go,
    [morrow_obs:down([Nth, " monitor: "], R) || {Nth, R} <- lists:zip(["first", "second", "third", "fourth"], Refs)],
    morrow_obs:demonitor_each("consumed", Refs),
    morrow_obs:drain().
