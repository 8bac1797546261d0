# Authors: The partikit developers
# SPDX-License-Identifier: BSD-3-Clause
"""Special functions compiled with numba: the log of the chi-square upper tail.

Splitting criteria compare p-values that routinely fall below ``1e-300`` (a strong
attribute on a million rows), so every tail probability is carried as a logarithm
and never exponentiated: ``scipy.stats.chi2.logsf`` returns ``-inf`` there and all
such candidates would tie.
"""

import math

import numpy as np
from numba import njit

from partikit._kernels._config import NJIT

# Relative tolerance of the series and continued-fraction stopping rules: a notch
# below the float64 epsilon so that the last term kept is below rounding.
_EPS = 1e-17
# The continued fraction converges once a step changes it by at most one ulp.
_CF_EPS = 2.220446049250313e-16
# Smallest magnitude allowed for a Lentz denominator: avoids a division by zero
# without disturbing any representable partial convergent.
_FPMIN = 1e-300
_LOG_2PI = math.log(2.0 * math.pi)
# Below this shape the Stirling remainder series is not accurate to float64, and
# the direct a*log(z) - z - lgamma(a) loses nothing anyway (all terms stay small).
_STIRLING_MIN = 10.0
# Coefficients B_{2k} / (2k (2k - 1)) of Stirling's series for lgamma, k = 1 .. 7.
_STIRLING_COEF = (
    1.0 / 12.0,
    -1.0 / 360.0,
    1.0 / 1260.0,
    -1.0 / 1680.0,
    1.0 / 1188.0,
    -691.0 / 360360.0,
    1.0 / 156.0,
)


@njit(**NJIT)
def log_chi2_sf(x, dof):
    """Return the natural log of the chi-square upper tail ``P[chi2_dof >= x]``.

    Parameters
    ----------
    x : float
        Statistic.
    dof : float
        Degrees of freedom (integers in practice; any positive value works).

    Returns
    -------
    log_sf : float
        ``log Q(dof / 2, x / 2)``, finite for every finite ``x``: ``0.0`` when
        ``x <= 0`` or ``dof <= 0`` (a one-group table has p-value 1) and when
        ``dof = +inf`` for finite ``x``, ``-inf`` for ``x = +inf`` and finite
        ``dof``, ``nan`` if an input is ``nan`` or both are infinite.

    Notes
    -----
    ``Q(a, z)`` is the regularized upper incomplete gamma function. Below
    ``z = a + 1`` the power series of ``P = 1 - Q`` converges fast and
    ``log Q = log1p(-P)``; above, the continued fraction of ``Q`` does. Both
    carry the prefactor ``z^a e^-z / Gamma(a)`` as a logarithm, which is what
    keeps ``x = 1e9`` finite (its tail is about ``exp(-5e8)``). The relative
    error of the result is below ``1e-10`` for ``x`` in ``[1e-3, 1e9]`` and
    ``dof`` in ``[1, 1e5]``.

    The steps are written inline in this one function rather than as small
    jitted helpers: numba compiles (and caches) every jitted function on its
    own, and the helpers cost a cold process more than half a second.

    References
    ----------
    .. [1] W. H. Press, S. A. Teukolsky, W. T. Vetterling and B. P. Flannery,
       "Numerical Recipes: The Art of Scientific Computing", 3rd ed., Cambridge
       University Press, 2007, section 6.2 (incomplete gamma function).
    .. [2] W. J. Lentz, "Generating Bessel functions in Mie scattering calculations
       using continued fractions", Applied Optics 15(3):668-671, 1976,
       doi:10.1364/AO.15.000668.
    .. [3] I. J. Thompson and A. R. Barnett, "Coulomb and Bessel functions of
       complex arguments and order", Journal of Computational Physics
       64(2):490-509, 1986, doi:10.1016/0021-9991(86)90046-X.
    """
    if math.isnan(x) or math.isnan(dof):
        return math.nan
    if x <= 0.0 or dof <= 0.0:
        return 0.0
    if math.isinf(x):
        return math.nan if math.isinf(dof) else -math.inf
    if math.isinf(dof):
        return 0.0
    a = 0.5 * dof
    z = 0.5 * x

    # The log prefactor log(z^a e^-z / Gamma(a)), common to P and Q. For large a
    # the three terms of a log(z) - z - lgamma(a) are each about a log(a) while
    # their sum near z = a is about -0.5 log(2 pi a), so the direct form loses
    # log10(a log a) digits. Writing z = a (1 + t) and expanding lgamma with
    # Stirling's formula gives the cancellation-free
    # a (log1p(t) - t) + 0.5 log(a / (2 pi)) - remainder(a).
    if a < _STIRLING_MIN:
        log_prefactor = a * math.log(z) - z - math.lgamma(a)
    else:
        t = (z - a) / a
        if t <= -0.5:
            # Far below the mode 1 + t = z / a is better computed by a division
            # than by the subtraction above, whose absolute error is large
            # relative to a tiny z / a; log(z / a) - t has no harmful
            # cancellation there.
            log1pmx = math.log(z / a) - t
        elif t < 1.0:
            # log1p(t) - t without cancellation: with u = t / (2 + t),
            # log1p(t) = 2 atanh(u) and 2 u - t = -t u, so log1p(t) - t =
            # -t u + 2 (u^3 / 3 + u^5 / 5 + ...): the leading term is exact up
            # to rounding and the series is small and fast (|u| < 1/3).
            u = t / (2.0 + t)
            u2 = u * u
            term = 1.0
            total = 1.0 / 3.0
            k = 5.0
            while True:
                term *= u2
                inc = term / k
                total += inc
                if inc <= total * _EPS:
                    break
                k += 2.0
            log1pmx = -t * u + 2.0 * u * u2 * total
        else:
            log1pmx = math.log1p(t) - t
        # Stirling's remainder lgamma(a) - ((a - 0.5) log(a) - a + 0.5 log(2 pi)):
        # seven terms of the asymptotic series leave an error below 3e-17 at
        # a = 10, and less beyond.
        inv = 1.0 / a
        inv2 = inv * inv
        remainder = 0.0
        for i in range(len(_STIRLING_COEF) - 1, -1, -1):
            remainder = remainder * inv2 + _STIRLING_COEF[i]
        remainder *= inv
        log_prefactor = a * log1pmx + 0.5 * (math.log(a) - _LOG_2PI) - remainder

    # Near z = a both the series and the continued fraction need O(sqrt(a)) terms
    # (at most about 8 sqrt(a) for the series at z = a + 1, fewer for the
    # fraction, plus a few dozen for small a); a cap twenty times larger is never
    # reached. Clipped so that an absurd shape cannot overflow the conversion.
    # (np.intp and a conditional rather than int() and min(): numba compiles
    # those builtins as functions of their own at a cold start)
    cap = 200.0 * math.sqrt(a)
    max_iterations = 1000 + np.intp(cap if cap < 1e9 else 1e9)

    if z < a + 1.0:
        # log P by the power series P(a, z) = z^a e^-z / Gamma(a) *
        # sum_n z^n / (a (a + 1) ... (a + n)); every term is positive, so the sum
        # has no cancellation.
        ap = a
        term = 1.0 / a
        total = term
        for _ in range(max_iterations):
            ap += 1.0
            term *= z / ap
            total += term
            if term < total * _EPS:
                break
        return math.log1p(-math.exp(log_prefactor + math.log(total)))

    # log Q by the even part of Legendre's continued fraction
    # Q(a, z) = z^a e^-z / Gamma(a) * 1 / (z + 1 - a - 1 (1 - a) / (z + 3 - a - ...
    # with the modified Lentz algorithm. The fraction itself equals
    # int_0^inf (1 + u)^(a - 1) e^(-z u) du, which lies between 1 / z and
    # 1 / (z + 1 - a) (in either order): it neither overflows nor underflows, so
    # only the prefactor needs logs.
    b = z + 1.0 - a
    c = 1.0 / _FPMIN
    d = 1.0 / b
    h = d
    for i in range(1, max_iterations + 1):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        if abs(d) < _FPMIN:
            d = _FPMIN
        c = b + an / c
        if abs(c) < _FPMIN:
            c = _FPMIN
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _CF_EPS:
            break
    return log_prefactor + math.log(h)


def log_chi2_sf_array(x, dof):
    """Return :func:`log_chi2_sf` elementwise.

    Parameters
    ----------
    x : ndarray of shape (n,), dtype float64
        Statistics.
    dof : ndarray of shape (n,), dtype float64
        Degrees of freedom, same shape as ``x``.

    Returns
    -------
    log_sf : ndarray of shape (n,), dtype float64
        Natural log of the upper tail probabilities.
    """
    # the result is made here, not in the kernel: an allocation in a kernel is
    # one more numba routine for a cold first fit to compile
    out = np.empty(x.shape[0])
    log_chi2_sf_into(x, dof, out)
    return out


@njit(**NJIT)
def log_chi2_sf_into(x, dof, out):
    """:func:`log_chi2_sf` of ``x[i], dof[i]`` into ``out[i]``."""
    for i in range(x.shape[0]):
        out[i] = log_chi2_sf(x[i], dof[i])


@njit(**NJIT)
def log_f_sf(statistic, dfn, dfd):
    """Return the natural log of the F upper tail ``P[F(dfn, dfd) >= statistic]``.

    Parameters
    ----------
    statistic : float
        The F statistic.
    dfn, dfd : float
        Degrees of freedom of the numerator and of the denominator.

    Returns
    -------
    log_sf : float
        ``log I_x(dfd / 2, dfn / 2)`` with ``x = dfd / (dfd + dfn statistic)``,
        finite for every finite statistic: ``0.0`` when ``statistic <= 0`` or a
        degree of freedom is not positive, ``-inf`` for an infinite statistic,
        ``nan`` for a ``nan`` input.

    Notes
    -----
    ``I_x(a, b)`` is the regularized incomplete beta function, evaluated by its
    continued fraction with the modified Lentz algorithm. Below
    ``x = (a + 1) / (a + b + 2)`` the fraction is read directly and its
    prefactor ``x^a (1 - x)^b / (a B(a, b))`` is kept as a logarithm, so that
    ``F = 1e6`` on a million rows gives a large negative number, not
    ``-inf``; above, ``I_x(a, b) = 1 - I_{1-x}(b, a)``. The steps are inline
    for the reason :func:`log_chi2_sf` gives.

    References
    ----------
    .. [1] W. H. Press, S. A. Teukolsky, W. T. Vetterling and B. P. Flannery,
       "Numerical Recipes: The Art of Scientific Computing", 3rd ed., Cambridge
       University Press, 2007, section 6.4 (incomplete beta function).
    """
    if math.isnan(statistic) or math.isnan(dfn) or math.isnan(dfd):
        return math.nan
    if statistic <= 0.0 or dfn <= 0.0 or dfd <= 0.0:
        return 0.0
    if math.isinf(statistic):
        return -math.inf
    a = 0.5 * dfd
    b = 0.5 * dfn
    # x and 1 - x each from their own quotient: 1 - x loses every digit when
    # x is close to 1
    x = dfd / (dfd + dfn * statistic)
    one_minus_x = dfn * statistic / (dfd + dfn * statistic)
    upper = x >= (a + 1.0) / (a + b + 2.0)
    if upper:
        a, b = b, a
        x, one_minus_x = one_minus_x, x
    log_front = (
        a * math.log(x)
        + b * math.log(one_minus_x)
        - (math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b))
        - math.log(a)
    )
    # continued fraction of I_x(a, b) (Numerical Recipes' betacf)
    qab = a + b
    qap = a + 1.0
    qam = a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    if abs(d) < _FPMIN:
        d = _FPMIN
    d = 1.0 / d
    h = d
    cap = 200.0 * math.sqrt(a + b)
    max_iterations = 1000 + np.intp(cap if cap < 1e9 else 1e9)
    for m in range(1, max_iterations + 1):
        m2 = 2.0 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        if abs(d) < _FPMIN:
            d = _FPMIN
        c = 1.0 + aa / c
        if abs(c) < _FPMIN:
            c = _FPMIN
        d = 1.0 / d
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        if abs(d) < _FPMIN:
            d = _FPMIN
        c = 1.0 + aa / c
        if abs(c) < _FPMIN:
            c = _FPMIN
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _CF_EPS:
            break
    log_tail = log_front + math.log(h)
    if upper:
        # the tail asked for is 1 - the one computed
        return math.log1p(-math.exp(log_tail))
    return log_tail
