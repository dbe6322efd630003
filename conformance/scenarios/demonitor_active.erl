%% Erlang twin of demonitor_active.mr (see that file for what is observed).
-module(demonitor_active).
-export([main/0]).

-import(morrow_obs, [say/1, reason/1, demonitored/4]).

main() -> morrow_obs:run(fun observer/0).

observer() ->
    W = spawn(fun morrow_obs:idle/0),
    Control = morrow_obs:monitor(W),
    [R1, _, R3, R4] = Refs = [morrow_obs:monitor(W) || _ <- morrow_obs:demonitor_options()],
    morrow_obs:demonitor_each("active", Refs),
    demonitored("cancelled", R3, false, true),
    demonitored("cancelled", R1, true, true),
    demonitored("cancelled", R4, false, false),
    W ! go,
    receive {'DOWN', Control, process, _, Reason} -> say(["down control ", reason(Reason)]) end,
    morrow_obs:drain().
