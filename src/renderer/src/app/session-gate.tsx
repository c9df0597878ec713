import { startTransition, useEffect, useRef, useState } from 'react';
import { useStore } from 'react-redux';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router-dom';
import type { UserProfile } from '../../../shared/api/users';
import { portalPaths } from '../../../shared/routes';
import {
  initializeSession,
  loadSignedOutNotice,
  selectIsAuthenticated,
  type SignedOutReason,
  sessionCleared,
  signOut,
  tokensRefreshed,
  updateActivity,
} from '../features/auth';
import { sessionEndReason } from '../lib/api-client';
import type { Services } from '../lib/services';
import { useAppDispatch, useAppSelector } from '../lib/store-hooks';
import { roleFromToken } from '../lib/token';
import { SessionSpinner } from './loading-screens';
import type { RootState } from './store';

/** Pages an invalid session may stay on; elsewhere it goes to /landing. */
const PUBLIC_PATHS: readonly string[] = [
  portalPaths.landing,
  portalPaths.login,
  portalPaths.register,
  portalPaths.forgotPassword,
  portalPaths.resetPassword,
  portalPaths.verifyRegistration,
];

/** Says why this device was signed out; the notice's code is downloaded only when it is needed. */
function tellSignedOut(reason: SignedOutReason | undefined): void {
  void loadSignedOutNotice().then(({ showSignedOutNotice }) => showSignedOutNotice(reason));
}

interface SessionGateProps {
  services: Services;
  /**
   * This browser stores no session (the page was rendered ahead of time and its first script found
   * none): the route renders at once, as the build rendered it, while the check still runs.
   */
  nothingToRestore?: boolean;
}

/**
 * Root of every route: connects the API client to the store and router, restores the session
 * (showing the 'Initializing secure session...' spinner meanwhile) and keeps it alive or ends it.
 */
export function SessionGate({ services, nothingToRestore = false }: SessionGateProps) {
  const dispatch = useAppDispatch();
  const store = useStore<RootState>();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const pathRef = useRef(pathname);
  pathRef.current = pathname;
  // With nothing stored to restore (a page rendered ahead of time says so), the page shows at once.
  const [ready, setReady] = useState(nothingToRestore);
  const [sentToLanding, setSentToLanding] = useState(false);
  const started = useRef(false);
  const isAuthenticated = useAppSelector(selectIsAuthenticated);

  // A lost session goes to /landing and is signed out only once /landing shows:
  // signing out first would let the route guards send the user to /login instead. There, a
  // notice says once why (the reason the server gave, when it gave one).
  const [sessionLost, setSessionLost] = useState<{ reason: SignedOutReason | undefined } | null>(null);
  useEffect(() => {
    if (!sessionLost || pathname !== portalPaths.landing) return;
    setSessionLost(null);
    dispatch(sessionCleared());
    tellSignedOut(sessionLost.reason);
  }, [sessionLost, pathname, dispatch]);

  useEffect(() => {
    const loseSession = (reason?: SignedOutReason) => {
      // Several calls can lose the session before /landing shows: the first reason given stays.
      setSessionLost((lost) => ({ reason: lost?.reason ?? reason }));
      void navigate(portalPaths.landing, { replace: true });
    };
    services.client.setSessionHandlers({
      currentPath: () => pathRef.current,
      onSessionLost: loseSession,
      onTokensRefreshed: (tokens) => {
        const user = (tokens.user as UserProfile | null) ?? store.getState().auth.user;
        if (user) dispatch(tokensRefreshed({ user, role: roleFromToken(tokens.accessToken) }));
      },
    });
    return () => services.client.setSessionHandlers({});
  }, [services, dispatch, navigate, store]);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void dispatch(initializeSession())
      .unwrap()
      .then((result) => {
        // A transition: React renders the first screen in slices, so no single task blocks input long.
        startTransition(() => {
          if (result.outcome === 'invalid' && !PUBLIC_PATHS.includes(pathRef.current)) setSentToLanding(true);
          setReady(true);
        });
        if (result.outcome === 'invalid') tellSignedOut(result.reason);
      });
  }, [dispatch]);

  // Once there, the redirect of an invalid session is done; later navigations are the user's own.
  useEffect(() => {
    if (sentToLanding && pathname === portalPaths.landing) setSentToLanding(false);
  }, [sentToLanding, pathname]);

  useEffect(() => {
    if (!ready || !isAuthenticated) return;
    // The monitor is only needed once signed in, so it is not part of the first download.
    let stop: (() => void) | undefined;
    let stopped = false;
    void import('../lib/session-monitor').then(({ startSessionMonitor }) => {
      if (stopped) return;
      stop = startSessionMonitor({
        isAuthenticated: () => store.getState().auth.isAuthenticated,
        lastActivity: () => store.getState().auth.lastActivity,
        getAccessToken: () => services.tokens.getAccessToken(),
        onInactive: () => {
          void signOut(dispatch);
          tellSignedOut('inactive');
        },
        refresh: () =>
          services.client.refreshTokens().catch((error: unknown) => {
            setSessionLost((lost) => ({ reason: lost?.reason ?? sessionEndReason(error) }));
            void navigate(portalPaths.landing, { replace: true });
          }),
        markActive: () => dispatch(updateActivity(services.now())),
        activityTarget: globalThis.window,
        now: services.now,
      });
    });
    return () => {
      stopped = true;
      stop?.();
    };
  }, [ready, isAuthenticated, services, store, dispatch, navigate]);

  if (!ready) return <SessionSpinner />;
  // An invalid session goes to /landing before any guard sees the route it started on.
  if (sentToLanding && pathname !== portalPaths.landing) return <Navigate to={portalPaths.landing} replace />;
  return <Outlet />;
}
