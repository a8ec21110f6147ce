import { Tooltip } from '@mantine/core';
import bi from 'flag-icons/flags/4x3/bi.svg';
import cd from 'flag-icons/flags/4x3/cd.svg';
import ci from 'flag-icons/flags/4x3/ci.svg';
import cv from 'flag-icons/flags/4x3/cv.svg';
import dz from 'flag-icons/flags/4x3/dz.svg';
import er from 'flag-icons/flags/4x3/er.svg';
import ga from 'flag-icons/flags/4x3/ga.svg';
import gh from 'flag-icons/flags/4x3/gh.svg';
import gm from 'flag-icons/flags/4x3/gm.svg';
import gn from 'flag-icons/flags/4x3/gn.svg';
import gq from 'flag-icons/flags/4x3/gq.svg';
import ke from 'flag-icons/flags/4x3/ke.svg';
import lr from 'flag-icons/flags/4x3/lr.svg';
import ls from 'flag-icons/flags/4x3/ls.svg';
import ma from 'flag-icons/flags/4x3/ma.svg';
import mu from 'flag-icons/flags/4x3/mu.svg';
import mw from 'flag-icons/flags/4x3/mw.svg';
import na from 'flag-icons/flags/4x3/na.svg';
import ne from 'flag-icons/flags/4x3/ne.svg';
import ng from 'flag-icons/flags/4x3/ng.svg';
import rw from 'flag-icons/flags/4x3/rw.svg';
import sc from 'flag-icons/flags/4x3/sc.svg';
import sl from 'flag-icons/flags/4x3/sl.svg';
import sz from 'flag-icons/flags/4x3/sz.svg';
import td from 'flag-icons/flags/4x3/td.svg';
import tg from 'flag-icons/flags/4x3/tg.svg';
import tn from 'flag-icons/flags/4x3/tn.svg';
import za from 'flag-icons/flags/4x3/za.svg';
import zw from 'flag-icons/flags/4x3/zw.svg';

/**
 * Flags as small SVG images (flag-icons, 4:3), for the countries apps are made for: emoji flags show as two letters
 * on systems without a colour-emoji font (Windows), so a card would say "GH" where it means Ghana's flag.
 */
const FLAG_URLS: Record<string, string> = {
  bi,
  cd,
  ci,
  cv,
  dz,
  er,
  ga,
  gh,
  gm,
  gn,
  gq,
  ke,
  lr,
  ls,
  ma,
  mu,
  mw,
  na,
  ne,
  ng,
  rw,
  sc,
  sl,
  sz,
  td,
  tg,
  tn,
  za,
  zw,
};

/** A flag given as an image address rather than a country code. */
export const isFlagImage = (code: string) => /^(https?:|\/|data:image)/.test(code);

export function hasCountryFlag(code: string): boolean {
  return Object.hasOwn(FLAG_URLS, code.toLowerCase());
}

interface CountryFlagProps {
  /** ISO 3166-1 alpha-2 code ('gh'), or an image address of the flag. */
  code: string;
  /** The country's name: the image's text for screen readers and its tooltip. */
  name: string;
  /** Width in pixels; the height is three quarters of it. */
  width?: number;
}

/**
 * A country's flag with its name as a tooltip and as the image's alternative text.
 * @example <CountryFlag code="gh" name="Ghana" />
 */
export function CountryFlag({ code, name, width = 28 }: CountryFlagProps) {
  const src = isFlagImage(code) ? code : FLAG_URLS[code.toLowerCase()];
  if (!src) return null;
  return (
    <Tooltip label={name} withArrow>
      <img
        src={src}
        alt={name}
        width={width}
        height={Math.round((width * 3) / 4)}
        data-testid="country-flag"
        style={{ flexShrink: 0, borderRadius: 3, objectFit: 'cover', boxShadow: '0 0 0 1px rgba(0, 0, 0, 0.12)' }}
      />
    </Tooltip>
  );
}
