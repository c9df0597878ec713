import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { portalPaths } from '../../../shared/routes';
import {
  destinationAfterSignIn,
  forgetReturnPath,
  homeFor,
  selectIsAuthenticated,
  selectUserRole,
} from '../features/auth';
import { useAppSelector } from '../lib/store-hooks';

/** Login, register and forgot-password: an authenticated visitor is sent on (see `destinationAfterSignIn`). */
export function RedirectIfAuthenticated() {
  const isAuthenticated = useAppSelector(selectIsAuthenticated);
  const role = useAppSelector(selectUserRole);
  const location = useLocation();
  return isAuthenticated ? (
    <LeaveSignInPages to={destinationAfterSignIn(location, homeFor(role))} />
  ) : (
    <Outlet />
  );
}

/** Goes to `to`; the destination kept for after the sign-in is spent. */
function LeaveSignInPages({ to }: { to: string }) {
  useEffect(forgetReturnPath, []);
  return <Navigate to={to} replace />;
}

/**
 * Login required: a visitor goes to /login. With `allowedRoles`, 'admin' is admitted by the admin
 * check and any other role by name; anyone else goes home.
 */
export function RequireAuth({ allowedRoles }: { allowedRoles?: readonly string[] }) {
  const isAuthenticated = useAppSelector(selectIsAuthenticated);
  const role = useAppSelector(selectUserRole);
  const location = useLocation();
  if (!isAuthenticated) return <Navigate to={portalPaths.login} replace state={{ from: location }} />;
  if (allowedRoles) {
    const admitted =
      role === 'admin' ? allowedRoles.includes('admin') : !!role && allowedRoles.includes(role);
    if (!admitted) return <Navigate to={homeFor(role)} replace />;
  }
  return <Outlet />;
}

/** Admin-only routes: non-admins go to /dashboard, visitors to /login. */
export function RequireAdmin() {
  const isAuthenticated = useAppSelector(selectIsAuthenticated);
  const role = useAppSelector(selectUserRole);
  const location = useLocation();
  if (!isAuthenticated) return <Navigate to={portalPaths.login} replace state={{ from: location }} />;
  return role === 'admin' ? <Outlet /> : <Navigate to={portalPaths.dashboard} replace />;
}

/** User-only routes: admins go to /admin. */
export function UserOnly() {
  const role = useAppSelector(selectUserRole);
  return role === 'admin' ? <Navigate to={portalPaths.admin} replace /> : <Outlet />;
}

/** `/` and unknown paths: home when signed in, else the landing page. */
export function HomeRedirect() {
  const isAuthenticated = useAppSelector(selectIsAuthenticated);
  const role = useAppSelector(selectUserRole);
  return <Navigate to={isAuthenticated ? homeFor(role) : portalPaths.landing} replace />;
}
