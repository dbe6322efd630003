%% Erlang twin of demonitor_self.mr (see that file for what is observed).
-module(demonitor_self).
-export([main/0]).

-import(morrow_obs, [say/1, bool/1]).

main() -> morrow_obs:run(fun observer/0).

observer() ->
    Me = self(),
    [R1, R2, R3, R4] = Refs = [morrow_obs:monitor(Me) || _ <- morrow_obs:demonitor_options()],
    say(["self monitors distinct ", bool(R1 =/= R2 andalso R2 =/= R3 andalso R3 =/= R4)]),
    morrow_obs:demonitor_each("self", Refs),
    morrow_obs:demonitored("self kept", morrow_obs:monitor(Me), false, true),
    morrow_obs:drain().
